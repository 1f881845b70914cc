import type { ProjectExportParts, ProjectExportQuery } from '@board/persistence';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { EXPORT_FORMAT, EXPORT_VERSION, ProjectExportService } from './project-export.service';

// The read model is a typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const GONE = '00000000-0000-4000-8000-000000000002';
const owner = (projectId: string): ProjectCaller => ({ userId: 'olga', kind: 'human', name: 'Olga', role: 'owner', projectId, clientId: null });

/** The parts as PostgreSQL writes them: JSON text each, joined by the service as text. */
const PARTS: ProjectExportParts = {
  key: 'WEB',
  project: '{"id":"p","name":"Web","key":"WEB","members":[{"id":"olga","email":"olga@example.com"}]}',
  properties: '[{"id":"s","name":"Status","options":[]}]',
  views: '[]',
  cardView: '{}',
  rules: '{"text":"Be kind","updatedAt":null}',
  tasks: '[{"id":"t","number":1,"title":"Quote \\" and \\u2028"}]',
  runs: '[]',
  activity: '[{"id":"a","kind":"created"}]',
  attachments: '[]',
};

/** An export is a read: the service takes no unit of work, so it can declare no event. */
function setUp() {
  const asked: string[] = [];
  const parts: ProjectExportQuery = { parts: async (projectId) => (asked.push(projectId), projectId === PROJECT ? PARTS : null) };
  return { asked, service: new ProjectExportService(parts, new SteppedClock(new Date('2026-03-02T10:00:00.000Z'))) };
}

describe('ProjectExportService', () => {
  it('writes one document: what it is and when, then each part as PostgreSQL wrote it, in the contract’s order', async () => {
    const { asked, service } = setUp();
    const { key, json } = await service.export(owner(PROJECT));
    expect(key).toBe('WEB');
    expect(asked).toEqual([PROJECT]);
    const document = JSON.parse(json);
    expect(Object.keys(document)).toEqual(['format', 'version', 'exportedAt', 'project', 'properties', 'views', 'cardView', 'rules', 'tasks', 'runs', 'activity', 'attachments']);
    expect(document).toMatchObject({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: '2026-03-02T10:00:00.000Z', rules: { text: 'Be kind' } });
    expect(document.tasks[0].title).toBe('Quote " and \u2028');
    // The parts are joined as text, never parsed and written again.
    expect(json).toContain(`"tasks":${PARTS.tasks}`);
  });

  it('refuses a project that is gone', async () => {
    const { service } = setUp();
    expect(await refusalCode(service.export(owner(GONE)))).toBe('project.not_found');
  });
});
