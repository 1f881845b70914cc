import type { RunLink, RunUsage } from '../api/types';
import { formatCost, formatCount } from '../ui/money';
import { safeHref } from '../ui/href';

const KIND_LABEL: Record<RunLink['kind'], string> = {
  pr: 'PR',
  branch: 'branch',
  commit: 'commit',
  preview: 'preview',
  session: 'session',
  doc: 'doc',
  other: 'link',
};

/** What a run produced: title or address, its kind as a label, each opening in a new tab. */
export function RunLinks({ links, label = 'Run links' }: { links: RunLink[]; label?: string }) {
  if (!links?.length) return null;
  return (
    <ul className="run-links" aria-label={label}>
      {links.map((l) => {
        const href = safeHref(l.url);
        const text = l.title || l.url;
        return (
          <li key={l.url}>
            <span className="kind-label">{KIND_LABEL[l.kind] ?? l.kind}</span>{' '}
            {href ? <a href={href} target="_blank" rel="noopener noreferrer" title={l.url}>{text}</a> : <span className="url">{text}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** Tokens in and out, cost (no currency: the team's own) and model; nothing before the first report. */
export function RunUsageLine({ usage }: { usage: RunUsage }) {
  if (!usage || (!usage.inputTokens && !usage.outputTokens && !usage.costMicros && !usage.model)) return null;
  return (
    <p className="run-usage">
      <span>{formatCount(usage.inputTokens)} tokens in</span> · <span>{formatCount(usage.outputTokens)} out</span> ·{' '}
      <span>cost {formatCost(usage.costMicros)}</span>
      {usage.model && <> · <span className="muted">{usage.model}</span></>}
    </p>
  );
}
