import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityLine, ActivityRecorder } from '@board/kernel';
import { Database } from '../database';

/** Writes a feed line inside the caller's transaction. */
@Injectable()
export class TypeormActivityRecorder extends ActivityRecorder {
  constructor(private readonly db: Database) {
    super();
  }

  async record(line: ActivityLine): Promise<void> {
    await this.db.exec(`INSERT INTO activity (id, project_id, task_id, actor_id, kind, data) VALUES ($1, $2, $3, $4, $5, $6)`, [
      randomUUID(), line.projectId, line.taskId, line.actorId, line.kind, JSON.stringify(line.data),
    ]);
  }
}
