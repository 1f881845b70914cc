import type { ActivityEntry, FullTask } from '../api/types';
import { Avatar } from '../ui/Avatar';

export function describeActivity(a: ActivityEntry): string {
  const d = a.data ?? {};
  switch (a.kind) {
    case 'created': return 'created the task';
    case 'title': return 'changed the title';
    case 'description': return 'changed the description';
    case 'value': return `set ${d.property ?? 'a property'}${d.value ? ` to ${d.value}` : ''}${d.dropped?.length ? ` (cleared ${d.dropped.join(', ')})` : ''}`;
    case 'checklist': return checklistLine(d.action, d.text);
    case 'comment': return d.action === 'edited' ? 'edited a comment' : d.action === 'deleted' ? 'deleted a comment' : 'commented';
    case 'run': return `run ${d.status ?? 'changed'}`;
    case 'archive': return d.action === 'restored' ? 'put it back' : 'archived it';
    case 'deleted': return d.action === 'restored' ? 'restored it' : 'deleted it';
    case 'link':
      return d.action === 'linked' ? `made it wait on ${d.blockerKey}` : d.action === 'unlinked' ? `stopped it waiting on ${d.blockerKey}`
        : d.action === 'parented' ? `made it part of ${d.parentKey}` : `took it out of ${d.parentKey}`;
    case 'attachment': return `${d.action === 'removed' ? 'removed' : 'added'} the file ${d.name ?? ''}`;
    case 'import': return 'imported it';
    case 'rules': return 'changed the project rules';
    case 'reset': return 'made a password reset link';
    default: return a.kind;
  }
}

/** Which checklist item and what happened to it; lines written before the text was kept say less. */
function checklistLine(action: string | undefined, text: string | undefined): string {
  if (text === undefined) return 'changed the checklist';
  const item = `“${text}”`;
  switch (action) {
    case 'added': return `added ${item} to the checklist`;
    case 'checked': return `ticked ${item} on the checklist`;
    case 'unchecked': return `unticked ${item} on the checklist`;
    case 'edited': return `changed a checklist item to ${item}`;
    case 'deleted': return `removed ${item} from the checklist`;
    default: return `changed ${item} on the checklist`;
  }
}

export function Activity({ task }: { task: FullTask }) {
  return (
    <section aria-labelledby="activity-h" className="activity">
      <h3 id="activity-h">Activity</h3>
      <ol>
        {task.activity.map((a) => (
          <li key={a.id}>
            <Avatar person={a.actor} size={16} /> <strong>{a.actor?.name ?? 'Someone'}</strong> {describeActivity(a)}{' '}
            <time className="muted" dateTime={a.createdAt}>{new Date(a.createdAt).toLocaleString()}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}
