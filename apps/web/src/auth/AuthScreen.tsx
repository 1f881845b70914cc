import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, post } from '../api/client';
import type { User } from '../api/types';
import { ErrorLine, useAction } from '../ui/Field';
import { navigate, setQuery, useLocation } from '../router';
import { useSignInOptions } from './sign-in-options';

type Mode = 'signin' | 'register' | 'forgot';

/**
 * The email an invite link carries: `/?invite=<email>` (the invite mail and the link an admin
 * copies), or `/register?email=<email>` from mails sent before that.
 */
function invitedEmail(path: string, query: URLSearchParams): string | null {
  const email = query.get('invite') ?? (path === '/register' ? query.get('email') : null);
  return email?.trim() || null;
}

export function AuthScreen() {
  const qc = useQueryClient();
  const { path, query } = useLocation();
  const invited = invitedEmail(path, query);
  // An invite opens the sign-up with its email filled in; the person may still sign in instead.
  const [mode, setMode] = useState<Mode>(invited ? 'register' : 'signin');
  const [email, setEmail] = useState(invited ?? '');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  // Two-step sign-in: the service answered `needsCode`, so the next try sends the app's code.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const { error, busy, run, setError } = useAction();
  const options = useSignInOptions();
  // Single sign-on's refusal comes back as `/?signin_error=<sentence>`: shown here, then taken out
  // of the address so a reload does not show it again.
  const [signOnError] = useState(() => query.get('signin_error'));
  useEffect(() => {
    if (signOnError !== null) setQuery({ signin_error: null }, true);
  }, [signOnError]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setNotice(null);
    await run(async () => {
      if (mode === 'forgot') {
        const answer = await post<{ message: string }>('/auth/forgot', { email });
        setNotice(answer.message);
        return;
      }
      const answer =
        mode === 'signin'
          ? await post<{ user: User }>('/auth/login', needsCode ? { email, password, code } : { email, password }).catch((err: unknown) => {
              if (err instanceof ApiError && err.body.needsCode === true) setNeedsCode(true);
              throw err;
            })
          : await post<{ user: User }>('/auth/register', { email, name, password });
      qc.setQueryData(['me'], answer.user);
    });
  };
  const switchTo = (m: Mode) => {
    setMode(m);
    setError(null);
    setNotice(null);
  };
  const title = mode === 'signin' ? 'Sign in' : mode === 'register' ? 'Create an account' : 'Forgot your password?';
  return (
    <main className="auth" id="main">
      <form className="card-form" onSubmit={submit} aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {signOnError && !error && <ErrorLine error={signOnError} />}
        {mode !== 'forgot' && options.data?.oidc && (
          <>
            {/* A page load, not a call: the browser goes to the provider and comes back signed in. */}
            <a className="button sign-on" href="/api/auth/oidc">{options.data.oidc.name}</a>
            <p className="auth-or" aria-hidden="true">or with your email</p>
          </>
        )}
        <label>
          Email
          <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {mode === 'register' && (
          <label>
            Name
            <input name="name" autoComplete="name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
        )}
        {mode !== 'forgot' && (
          <label>
            Password
            <input
              type="password"
              name="password"
              autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
              required
              minLength={mode === 'register' ? 8 : undefined}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        )}
        {mode === 'signin' && needsCode && (
          <label>
            Code from your authenticator app (or a recovery code)
            <input name="code" autoComplete="one-time-code" inputMode="text" required autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
          </label>
        )}
        <ErrorLine error={error} />
        {notice && <p className="notice" role="status">{notice}</p>}
        <button type="submit" className="primary" disabled={busy}>
          {mode === 'signin' ? 'Sign in' : mode === 'register' ? 'Create account' : 'Email me a link'}
        </button>
        <p className="auth-switch">
          {mode !== 'signin' && <button type="button" className="link" onClick={() => switchTo('signin')}>I have an account</button>}
          {mode !== 'register' && <button type="button" className="link" onClick={() => switchTo('register')}>Create an account</button>}
          {mode !== 'forgot' && <button type="button" className="link" onClick={() => switchTo('forgot')}>Forgot password?</button>}
        </p>
      </form>
    </main>
  );
}

/** The page a reset link opens: `/reset?token=svcr_…`. */
export function ResetScreen() {
  const qc = useQueryClient();
  const { query } = useLocation();
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const ok = await run(() => post('/auth/reset', { token: query.get('token') ?? '', password }));
    if (ok) {
      await qc.invalidateQueries({ queryKey: ['me'] });
      navigate('/', true);
    }
  };
  return (
    <main className="auth" id="main">
      <form className="card-form" onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        <label>
          New password
          <input type="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={busy}>Set password and sign in</button>
      </form>
    </main>
  );
}
