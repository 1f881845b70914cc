import { useState } from 'react';
import { errorText } from '../api/client';

/** Runs an async action, keeping its error for an alert line. */
export function useAction() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, setError };
}

export function ErrorLine({ error }: { error: string | null }) {
  if (!error) return null;
  return <p className="error" role="alert">{error}</p>;
}

export function Once({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="once" role="status">
      <p>{label} It is shown only this once: copy it now.</p>
      <code className="secret">{secret}</code>
      <button type="button" onClick={() => void navigator.clipboard?.writeText(secret)}>Copy</button>
    </div>
  );
}
