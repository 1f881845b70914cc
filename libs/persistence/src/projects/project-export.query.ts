/**
 * The parts of a project's export (extensions.md § 3.4), each as JSON text straight from
 * PostgreSQL, so the document is never parsed and written again in Node. Nothing secret is
 * selected: no token digests, webhook secrets, password digests, sessions or storage keys;
 * webhooks are the project's wiring, not its work, and stay behind.
 */
export interface ProjectExportParts {
  /** The project's key as it is (names the file), beside the parts. */
  key: string;
  project: string;
  properties: string;
  views: string;
  cardView: string;
  rules: string;
  tasks: string;
  runs: string;
  activity: string;
  attachments: string;
}

/** A project's export, read whole. */
export abstract class ProjectExportQuery {
  /** Null when there is no such project. Every part is read in the same snapshot. */
  abstract parts(projectId: string): Promise<ProjectExportParts | null>;
}
