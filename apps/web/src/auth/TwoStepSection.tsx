import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { post } from '../api/client';
import type { User } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';

/** The otpauth URL as an SVG QR code, drawn here (no image leaves the page). */
function QrCode({ url }: { url: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((text) => live && setSvg(text));
    return () => {
      live = false;
    };
  }, [url]);
  // The SVG is our own library's output for our own URL, not text from anyone else.
  return svg ? <div className="qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: svg }} /> : <p>…</p>;
}

/** Two-step sign-in (extensions.md § 3.1): set up with a QR code, turn on with a code, see the recovery codes once, turn off. */
export function TwoStepSection({ user }: { user: User }) {
  const qc = useQueryClient();
  const act = useAction();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['me'] });

  return (
    <section aria-labelledby="totp-h">
      <h2 id="totp-h">Two-step sign-in</h2>
      {recovery && (
        <div className="once" role="status" aria-label="Recovery codes">
          <p>Two-step sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without the app. They are shown only now.</p>
          <ul className="recovery-codes">{recovery.map((c) => <li key={c}><code>{c}</code></li>)}</ul>
        </div>
      )}
      {user.totp ? (
        <form
          className="stack"
          aria-label="Turn two-step sign-in off"
          onSubmit={(e) => {
            e.preventDefault();
            void act.run(async () => {
              await post('/auth/totp/disable', { password, code });
              setPassword('');
              setCode('');
              setRecovery(null);
              await refresh();
            });
          }}
        >
          <p>On: signing in asks for a code from your authenticator app.</p>
          <label>Password<input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} /></label>
          <label>Code from the app<input autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} /></label>
          <ErrorLine error={act.error} />
          <button type="submit" disabled={act.busy}>Turn off</button>
        </form>
      ) : setup ? (
        <form
          className="stack"
          aria-label="Turn two-step sign-in on"
          onSubmit={(e) => {
            e.preventDefault();
            void act.run(async () => {
              const answer = await post<{ recoveryCodes: string[] }>('/auth/totp/enable', { code });
              setRecovery(answer.recoveryCodes);
              setSetup(null);
              setCode('');
              await refresh();
            });
          }}
        >
          <p>Scan this with your authenticator app, or type the key, then enter the code it shows.</p>
          <QrCode url={setup.otpauthUrl} />
          <p>Key: <code className="secret">{setup.secret}</code></p>
          <label>Code from the app<input autoComplete="one-time-code" inputMode="numeric" required value={code} onChange={(e) => setCode(e.target.value)} /></label>
          <ErrorLine error={act.error} />
          <button type="submit" className="primary" disabled={act.busy}>Turn on</button>
        </form>
      ) : (
        <div className="stack">
          <p>Off. With it on, signing in also asks for a code from an authenticator app on your phone.</p>
          <ErrorLine error={act.error} />
          <button type="button" disabled={act.busy} onClick={() => void act.run(async () => setSetup(await post<{ secret: string; otpauthUrl: string }>('/auth/totp/setup')))}>
            Set up two-step sign-in
          </button>
        </div>
      )}
    </section>
  );
}
