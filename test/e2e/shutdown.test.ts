import { Client, registerPerson, startTestApp } from '../support/test-app';

/** A graceful stop lets open requests finish, refuses new ones and closes the pool. */
describe('graceful shutdown', () => {
  it('finishes a request that is under way, then stops answering and closes the pool', async () => {
    const t = await startTestApp();
    const person = await registerPerson(t);
    const anon = new Client(t.api);
    // A login spends a while in argon2: it is still running when the stop begins.
    const open = anon.post('/auth/login', { email: person.email, password: person.password });
    await new Promise((r) => setTimeout(r, 30));
    const closing = t.close();
    const answer = await open;
    expect(answer.status).toBe(200);
    expect(answer.body.user.email).toBe(person.email);
    await closing;
    await expect(fetch(`${t.api}/health`)).rejects.toThrow();
    const { DataSource } = await import('typeorm');
    expect(t.app.get(DataSource).isInitialized).toBe(false);
  });
});
