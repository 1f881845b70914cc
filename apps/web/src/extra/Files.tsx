import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, del, get, post } from '../api/client';
import type { Attachment, Board, FullTask, User } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';

/** Files: the bytes go straight to the bucket through the signed URL, then the upload is confirmed. */
export function Files({ task, me, board }: { task: FullTask; me: User; board: Board }) {
  const files = useQuery({
    queryKey: ['task-files', task.id, task.activity.filter((a) => a.kind === 'attachment').length],
    queryFn: () => get<{ attachments: Attachment[] }>(`/tasks/${task.id}/attachments`),
    retry: false,
  });
  const input = useRef<HTMLInputElement | null>(null);
  const act = useAction();
  const admin = board.project.role === 'owner' || board.project.role === 'admin';
  if (files.error instanceof ApiError && (files.error.status === 503 || files.error.status === 404)) {
    return (
      <section aria-labelledby="files-h" className="files">
        <h3 id="files-h">Files</h3>
        <p className="muted">{files.error.status === 503 ? files.error.message : 'Files are not available on this server.'}</p>
      </section>
    );
  }
  const upload = (file: File) =>
    act.run(async () => {
      const mime = file.type || 'application/octet-stream';
      const slot = await post<{ id: string; uploadUrl: string; headers: Record<string, string> }>(`/tasks/${task.id}/attachments`, { name: file.name, mime, size: file.size });
      const put = await fetch(slot.uploadUrl, { method: 'PUT', headers: slot.headers, body: file });
      if (!put.ok) throw new Error(`The bucket refused the file (${put.status}).`);
      await post(`/attachments/${slot.id}/ready`);
      await files.refetch();
    });
  return (
    <section aria-labelledby="files-h" className="files">
      <h3 id="files-h">Files</h3>
      <ul className="file-list">
        {files.data?.attachments.map((f) => (
          <li key={f.id} className="file">
            {f.mime.startsWith('image/') && f.mime !== 'image/svg+xml' ? (
              <a href={f.url} target="_blank" rel="noopener noreferrer"><img src={f.url} alt={f.name} width={f.width ?? undefined} height={f.height ?? undefined} loading="lazy" /></a>
            ) : (
              <a href={f.url} target="_blank" rel="noopener noreferrer">{f.name}</a>
            )}
            <span className="muted">{Math.ceil(f.size / 1024)} KB</span>
            <button type="button" className="link" onClick={() => void navigator.clipboard?.writeText(`![${f.name}](${f.url})`)}>Copy markdown</button>
            {(f.uploaderId === me.id || admin) && (
              <button type="button" className="link danger" onClick={() => void act.run(async () => { await del(`/attachments/${f.id}`); await files.refetch(); })}>Remove {f.name}</button>
            )}
          </li>
        ))}
      </ul>
      <label className="file-input">
        Attach a file
        <input ref={input} type="file" onChange={(e) => { const f = e.target.files?.[0]; if (f) void upload(f).then(() => { if (input.current) input.current.value = ''; }); }} />
      </label>
      {act.busy && <p role="status">Uploading…</p>}
      <ErrorLine error={act.error ?? (files.error ? files.error.message : null)} />
    </section>
  );
}
