/**
 * The parts of a Trello "Export as JSON" the import tests read, as the file holds them (the import's
 * own types are the narrowed reading: dates parsed, items renamed), to count and compare
 * independently of the service (the real export in ../shared/fixtures and bench/trello-export.js).
 */
import type { TrelloLabel, TrelloList } from '@board/imports';
import { generateTrelloExport, type GenerateOptions } from '../../bench/trello-export';

export type { TrelloLabel, TrelloList };

export interface TrelloCard {
  id: string;
  name: string;
  desc: string;
  closed: boolean;
  due: string | null;
  idList: string;
  idLabels: string[];
  pos: number;
}

export interface TrelloChecklist {
  id: string;
  idCard: string;
  pos: number;
  checkItems: { id: string; name: string; state: string; pos: number }[];
}

export interface TrelloAction {
  id: string;
  type: string;
  date: string;
  data: { text?: string; card: { id: string } };
  memberCreator?: { fullName: string };
}

export interface TrelloExport {
  lists: TrelloList[];
  labels: TrelloLabel[];
  cards: TrelloCard[];
  checklists: TrelloChecklist[];
  actions: TrelloAction[];
}

/** A generated export (bench/trello-export.js), typed. */
export const trelloExport = (options?: GenerateOptions): TrelloExport => generateTrelloExport(options) as TrelloExport;
