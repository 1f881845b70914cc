import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, put } from '../api/client';
import type { Project } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { linkProps, navigate } from '../router';

export function ProjectList() {
  const qc = useQueryClient();
  const projects = useQuery({ queryKey: ['projects'], queryFn: async () => (await get<{ projects: Project[] }>('/projects')).projects });
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [template, setTemplate] = useState<'empty' | 'team'>('empty');
  const create = useAction();
  const order = useAction();

  const move = (index: number, by: -1 | 1) => {
    const list = projects.data ?? [];
    const target = index + by;
    if (target < 0 || target >= list.length) return;
    // afterId names the project it lands behind; null puts it first.
    const rest = list.filter((_, i) => i !== index);
    const afterId = target === 0 ? null : rest[target - 1].id;
    void order.run(async () => {
      await put(`/projects/${list[index].id}/position`, { afterId });
      await qc.invalidateQueries({ queryKey: ['projects'] });
    });
  };

  return (
    <div className="page">
      <h1>Projects</h1>
      {projects.isPending && <p role="status">Loading projects…</p>}
      <ErrorLine error={projects.error?.message ?? order.error} />
      <ul className="project-list" aria-label="Your projects">
        {projects.data?.map((p, i) => (
          <li key={p.id} className="project-row">
            <a {...linkProps(`/p/${p.id}`)} className="project-link">
              <span className="project-key">{p.key}</span>
              <span className="project-name">{p.name}</span>
              <span className="muted">{p.taskCount ?? 0} tasks · {p.role}</span>
            </a>
            <span className="row-actions">
              <button type="button" className="icon" aria-label={`Move ${p.name} up`} disabled={i === 0} onClick={() => move(i, -1)}>↑</button>
              <button type="button" className="icon" aria-label={`Move ${p.name} down`} disabled={i === (projects.data?.length ?? 0) - 1} onClick={() => move(i, 1)}>↓</button>
            </span>
          </li>
        ))}
        {projects.data?.length === 0 && <li className="muted">No projects yet: make the first one below.</li>}
      </ul>
      <form
        className="inline-form"
        aria-label="New project"
        onSubmit={(e) => {
          e.preventDefault();
          void create.run(async () => {
            const a = await post<{ project: Project }>('/projects', { name, ...(key.trim() ? { key } : {}), template });
            setName('');
            setKey('');
            setTemplate('empty');
            await qc.invalidateQueries({ queryKey: ['projects'] });
            navigate(`/p/${a.project.id}`);
          });
        }}
      >
        <h2>New project</h2>
        <label>Project name<input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} /></label>
        <label>Key (optional)<input maxLength={10} value={key} onChange={(e) => setKey(e.target.value.toUpperCase())} placeholder="e.g. WEB" /></label>
        <fieldset className="template-choice">
          <legend>Start with</legend>
          <label className="choice">
            <input type="radio" name="template" value="empty" checked={template === 'empty'} onChange={() => setTemplate('empty')} />
            <span><strong>Empty</strong> <span className="muted">Status only (To do, In progress, Done)</span></span>
          </label>
          <label className="choice">
            <input type="radio" name="template" value="team" checked={template === 'team'} onChange={() => setTemplate('team')} />
            <span><strong>Team</strong> <span className="muted">also Assignee, Due, Priority and Labels, shown on the cards</span></span>
          </label>
        </fieldset>
        <button type="submit" className="primary" disabled={create.busy}>Create project</button>
        <ErrorLine error={create.error} />
      </form>
    </div>
  );
}
