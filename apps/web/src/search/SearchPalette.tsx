import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorText, get } from '../api/client';
import type { Project, TaskSearchAnswer, TaskSearchHit } from '../api/types';
import { navigate } from '../router';

/** One row of the palette: a project (by name or key, from the projects list) or a task (from /api/search). */
type Item = { kind: 'project'; project: Project } | { kind: 'task'; hit: TaskSearchHit };

/** Folded as the service folds: accents dropped, lower case, so "cafe" finds "Café" here too. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Projects whose key starts with the query or one of whose name's words starts with each word of it. */
export function projectsMatching(projects: readonly Project[], q: string): Project[] {
  const words = fold(q).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return [];
  return projects.filter((p) => {
    if (fold(p.key).startsWith(fold(q.trim()))) return true;
    const nameWords = fold(p.name).split(/[^\p{L}\p{N}]+/u);
    return words.every((w) => nameWords.some((n) => n.startsWith(w)));
  });
}

/** Waits for typing to pause before the query goes out. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const where = { key: 'key', title: 'title', description: 'description', comment: 'comment' } as const;

/**
 * The Ctrl/⌘-K palette: a modal dialog with a combobox over a listbox of projects and tasks.
 * ↑/↓ move, Enter opens (a task's panel on its board, or a project's board), Esc closes.
 */
export function SearchPalette({ initial, onClose }: { initial: string; onClose: () => void }) {
  const [q, setQ] = useState(initial);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const settled = useSettled(q.trim(), 150);
  const projects = useQuery({ queryKey: ['projects'], queryFn: async () => (await get<{ projects: Project[] }>('/projects')).projects });
  const tasks = useQuery({
    queryKey: ['search', settled],
    queryFn: () => get<TaskSearchAnswer>(`/search?${new URLSearchParams({ q: settled, limit: '10' })}`),
    enabled: settled !== '',
    staleTime: 10_000,
  });

  useEffect(() => input.current?.focus(), []);
  useEffect(() => setActive(0), [settled]);

  const items: Item[] = [
    ...projectsMatching(projects.data ?? [], q).slice(0, 5).map((project): Item => ({ kind: 'project', project })),
    ...(settled && settled === q.trim() ? (tasks.data?.hits ?? []) : []).map((hit): Item => ({ kind: 'task', hit })),
  ];
  const current = Math.min(active, Math.max(0, items.length - 1));
  const optionId = (i: number) => `${listId}-option-${i}`;

  const open = (item: Item | undefined) => {
    if (!item) return;
    onClose();
    if (item.kind === 'project') navigate(`/p/${item.project.id}`);
    else navigate(`/p/${item.hit.task.projectId}?task=${item.hit.task.id}`);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive(items.length ? (current + 1) % items.length : 0);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(items.length ? (current - 1 + items.length) % items.length : 0);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(items[current]);
    } else if (e.key === 'Tab') {
      // The dialog holds only the field and the list: focus stays in the field.
      e.preventDefault();
    }
  };

  const searching = settled !== q.trim() || tasks.isFetching;
  return (
    <div className="palette-backdrop" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Search tasks and projects" onKeyDown={onKeyDown}>
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Search tasks and projects"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(current) : undefined}
          placeholder="Search tasks and projects…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <ul id={listId} role="listbox" aria-label="Results" className="palette-list">
          {items.map((item, i) => (
            <li
              key={item.kind === 'project' ? `p-${item.project.id}` : `t-${item.hit.task.id}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'active' : undefined}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => open(item)}
            >
              {item.kind === 'project' ? (
                <>
                  <span className="palette-key">{item.project.key}</span> <span className="palette-title">{item.project.name}</span>{' '}
                  <span className="palette-note">project</span>
                </>
              ) : (
                <>
                  <span className="palette-key">{item.hit.task.key}</span> <span className="palette-title">{item.hit.task.title}</span>
                  {item.hit.task.archived && <span className="palette-note"> archived</span>}
                  {item.hit.where !== 'title' && item.hit.where !== 'key' && (
                    <span className="palette-snippet">
                      <span className="sr-only">{where[item.hit.where]}: </span>
                      {item.hit.snippet}
                    </span>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
        <p className="palette-status" role="status">
          {tasks.isError
            ? errorText(tasks.error)
            : q.trim() === ''
              ? 'Type to find a task or a project. ↑/↓ to move, Enter to open, Esc to close.'
              : searching
                ? 'Searching…'
                : items.length === 0
                  ? 'Nothing found.'
                  : `${items.length} shown${tasks.data && tasks.data.total > tasks.data.hits.length ? ` of ${tasks.data.total} tasks` : ''}.`}
        </p>
      </div>
    </div>
  );
}

/**
 * The header's search box and the palette it opens; Ctrl-K (⌘-K on a Mac) opens it from anywhere
 * on the page, and focus goes back where it was when it closes.
 */
export function SearchBox() {
  const [open, setOpen] = useState<string | null>(null);
  const [text, setText] = useState('');
  const before = useRef<Element | null>(null);
  const show = (initial: string) => {
    before.current = document.activeElement;
    setOpen(initial);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        show('');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const close = () => {
    setOpen(null);
    setText('');
    const back = before.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };
  return (
    <>
      <input
        type="search"
        className="topbar-search"
        aria-label="Search tasks and projects (Ctrl+K)"
        aria-keyshortcuts="Control+K Meta+K"
        placeholder="Search… (Ctrl K)"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value) show(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') show(text);
        }}
      />
      {open !== null && <SearchPalette initial={open} onClose={close} />}
    </>
  );
}
