import { PresencePublisher, PresenceSignal } from '@board/kernel';
import type { ProjectCaller } from '../auth/auth-context';
import { PresenceService } from './presence.service';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-0000000000a1';
const ANN: ProjectCaller = { userId: 'ann', kind: 'human', name: 'Ann', role: 'member', projectId: PROJECT, clientId: null };

class RecordingPublisher extends PresencePublisher {
  readonly signals: PresenceSignal[] = [];
  async publish(signal: PresenceSignal): Promise<void> {
    this.signals.push(signal);
  }
}

describe('PresenceService', () => {
  it('passes who has which task and field open, and no field once the task is closed', async () => {
    const publisher = new RecordingPublisher();
    const service = new PresenceService(publisher);
    await service.announce(ANN, { clientId: 'tab-1', taskId: TASK, field: 'title' });
    await service.announce(ANN, { clientId: 'tab-1', taskId: null, field: 'title' });
    await service.announce(ANN, { clientId: 'tab-2' });
    expect(publisher.signals).toEqual([
      { projectId: PROJECT, clientId: 'tab-1', userId: 'ann', taskId: TASK, field: 'title' },
      { projectId: PROJECT, clientId: 'tab-1', userId: 'ann', taskId: null, field: null },
      { projectId: PROJECT, clientId: 'tab-2', userId: 'ann', taskId: null, field: null },
    ]);
  });
});
