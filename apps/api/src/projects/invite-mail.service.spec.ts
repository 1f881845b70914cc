import { AppConfig } from '../config/app-config';
import { BackgroundMail } from '../mail/background-mail';
import { RecordingMailer } from '../../../../test/support/in-memory/mailer';
import { projectWorld } from '../../../../test/support/in-memory/project-world';
import { InviteMailService } from './invite-mail.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

async function setUp(options: { mail?: boolean; url?: string } = { url: 'https://board.example.com' }) {
  const world = projectWorld();
  const mailer = new RecordingMailer(options.mail ?? true);
  const config = Object.assign(new AppConfig(), { SERVICE_URL: options.url });
  const service = new InviteMailService(mailer, world.projects, new BackgroundMail(), config);
  const project = await world.project(world.person('Olive'), 'Web');
  return { service, mailer, projectId: project.id, projects: world.projects };
}

describe('InviteMailService', () => {
  it('mails the sign-up link of the email, naming the project and the inviter', async () => {
    const { service, mailer, projectId } = await setUp();
    expect(service.canMail).toBe(true);
    expect(await service.send(projectId, 'new@example.com', 'Olive')).toBe(true);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0].to).toBe('new@example.com');
    expect(JSON.stringify(mailer.sent[0])).toContain(service.signupUrl('new@example.com'));
    expect(JSON.stringify(mailer.sent[0])).toContain('Web');
  });

  it('sends nothing without a relay or the service address, and answers false when the project is gone', async () => {
    const off = await setUp({ mail: false, url: 'https://board.example.com' });
    expect(off.service.canMail).toBe(false);
    expect(await off.service.send(off.projectId, 'new@example.com', 'Olive')).toBe(false);
    const noUrl = await setUp({ url: undefined });
    expect(noUrl.service.signupUrl('new@example.com')).toBeNull();
    expect(await noUrl.service.send(noUrl.projectId, 'new@example.com', 'Olive')).toBe(false);
    const gone = await setUp();
    await gone.projects.delete(gone.projectId);
    expect(await gone.service.send(gone.projectId, 'new@example.com', 'Olive')).toBe(false);
    expect([...off.mailer.sent, ...noUrl.mailer.sent, ...gone.mailer.sent]).toEqual([]);
  });
});
