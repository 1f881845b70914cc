import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { del, get, patch, post } from '../api/client';
import { AVATAR_COLOURS, type User } from '../api/types';
import { Avatar } from '../ui/Avatar';
import { TwoStepSection } from './TwoStepSection';
import { useSignInOptions } from './sign-in-options';
import { ErrorLine, useAction } from '../ui/Field';

export function AccountPage({ user }: { user: User }) {
  const qc = useQueryClient();
  const [name, setName] = useState(user.name);
  const [color, setColor] = useState(user.color);
  const [emoji, setEmoji] = useState(user.emoji ?? '');
  const profile = useAction();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const password = useAction();
  const [passwordDone, setPasswordDone] = useState(false);
  const mail = useAction();
  // Shown at once; the saved setting comes back with the answer.
  const [mailOn, setMailOn] = useState(user.mailNotifications);
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => get<{ others: number }>('/auth/sessions') });
  const endOthers = useAction();
  const options = useSignInOptions();

  return (
    <div className="page narrow">
      <h1>Your account</h1>
      <section aria-labelledby="profile-h">
        <h2 id="profile-h">Profile</h2>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void profile.run(async () => {
              const a = await patch<{ user: User }>('/auth/me', { name, color, emoji: emoji.trim() === '' ? null : emoji.trim() });
              qc.setQueryData(['me'], a.user);
            });
          }}
        >
          <Avatar person={{ ...user, name, color, emoji: emoji || null }} size={48} />
          <label>Name<input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} /></label>
          <fieldset className="swatches">
            <legend>Colour</legend>
            {AVATAR_COLOURS.map((c) => (
              <label key={c} className="swatch" style={{ background: c }}>
                <input type="radio" name="colour" value={c} checked={color === c} onChange={() => setColor(c)} aria-label={`Colour ${c}`} />
              </label>
            ))}
          </fieldset>
          <label>Face (one emoji, empty for initials)<input value={emoji} onChange={(e) => setEmoji(e.target.value)} /></label>
          <ErrorLine error={profile.error} />
          <button type="submit" className="primary" disabled={profile.busy}>Save profile</button>
        </form>
      </section>
      <section aria-labelledby="notices-h">
        <h2 id="notices-h">Notifications</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={mailOn}
            disabled={mail.busy}
            onChange={(e) => {
              const on = e.target.checked;
              setMailOn(on);
              void mail.run(async () => {
                const a = await patch<{ user: User }>('/auth/me', { mailNotifications: on });
                qc.setQueryData(['me'], a.user);
              }).then((ok) => !ok && setMailOn(!on));
            }}
          />{' '}
          Mail me when an agent asks me or someone mentions me
        </label>
        <ErrorLine error={mail.error} />
      </section>
      <section aria-labelledby="password-h">
        <h2 id="password-h">Password</h2>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            setPasswordDone(false);
            void password.run(async () => {
              await post('/auth/password', { current, next });
              setPasswordDone(true);
              setCurrent('');
              setNext('');
              void qc.invalidateQueries({ queryKey: ['sessions'] });
            });
          }}
        >
          <label>Current password<input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} /></label>
          {options.data?.oidc && <p className="muted">An account made by {options.data.oidc.name} has none until it sets one: leave it empty.</p>}
          <label>New password<input type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} /></label>
          <ErrorLine error={password.error} />
          {passwordDone && <p role="status">Password changed; your other sessions were signed out.</p>}
          <button type="submit" disabled={password.busy}>Change password</button>
        </form>
      </section>
      <section aria-labelledby="sessions-h">
        <h2 id="sessions-h">Other sessions</h2>
        <p>{sessions.data ? `You are signed in ${sessions.data.others} other time${sessions.data.others === 1 ? '' : 's'}.` : '…'}</p>
        <ErrorLine error={endOthers.error} />
        <button
          type="button"
          disabled={!sessions.data?.others || endOthers.busy}
          onClick={() => void endOthers.run(async () => { await del('/auth/sessions'); await qc.invalidateQueries({ queryKey: ['sessions'] }); })}
        >
          End other sessions
        </button>
      </section>
      <TwoStepSection user={user} />
      <SecurityLog />
    </div>
  );
}

const SECURITY_WORDS: Record<string, string> = {
  signed_in: 'Signed in',
  sign_in_failed: 'Sign-in refused',
  signed_out: 'Signed out',
  password_changed: 'Password changed',
  password_reset: 'Password reset by link',
  totp_on: 'Two-step sign-in turned on',
  totp_off: 'Two-step sign-in turned off',
  recovery_code_used: 'Recovery code used',
  sessions_ended: 'Other sessions ended',
  oidc_linked: 'Single sign-on linked',
};

/** The person's last 100 security events, newest first, with where they came from. */
function SecurityLog() {
  const log = useQuery({ queryKey: ['security'], queryFn: () => get<{ events: { at: string; kind: string; ip: string; userAgent: string }[] }>('/auth/me/security') });
  return (
    <section aria-labelledby="security-h">
      <h2 id="security-h">Security log</h2>
      {!log.data ? (
        <p>…</p>
      ) : log.data.events.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <table className="security-log">
          <thead>
            <tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Address</th><th scope="col">Browser or app</th></tr>
          </thead>
          <tbody>
            {log.data.events.map((e, i) => (
              <tr key={`${e.at}-${i}`}>
                <td><time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time></td>
                <td>{SECURITY_WORDS[e.kind] ?? e.kind}</td>
                <td>{e.ip}</td>
                <td className="user-agent">{e.userAgent}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
