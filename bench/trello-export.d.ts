export interface GenerateOptions {
  cards?: number;
  lists?: number;
  labels?: number;
  checklistItems?: number;
  comments?: number;
  closedEvery?: number;
  seed?: number;
}
export function generateTrelloExport(options?: GenerateOptions): unknown;
export function prng(seed: number): () => number;
