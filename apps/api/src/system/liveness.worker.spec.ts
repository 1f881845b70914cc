import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryInstanceRegistry } from '../../../../test/support/in-memory/instance-registry';
import { loadConfig } from '../config/app-config';
import { LivenessWorker } from './liveness.worker';

// A beat every 50 ms, dead after 250 ms: the instance gives its claims up 200 ms after its last good beat.
const config = loadConfig({ SERVICE_INSTANCE_BEAT_MS: '50', SERVICE_INSTANCE_DEAD_MS: '250' });

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('never came true');
    await sleep(10);
  }
}

describe('LivenessWorker', () => {
  let registry: InMemoryInstanceRegistry;
  let worker: LivenessWorker;

  beforeEach(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    registry = new InMemoryInstanceRegistry();
    worker = new LivenessWorker(registry, config);
    await worker.onModuleInit();
  });
  afterEach(async () => {
    await worker.beforeApplicationShutdown();
    jest.restoreAllMocks();
  });

  it('enters before it names a claimant, keeps beating, and leaves on a clean stop', async () => {
    const holder = worker.claimant()!;
    expect(registry.alive).toEqual(new Set([holder]));
    expect(worker.holds(holder)).toBe(true);
    expect(worker.signalOf(holder).aborted).toBe(false);
    expect(worker.holds('another')).toBe(false);
    expect(worker.signalOf('another').aborted).toBe(true);
    await until(() => registry.beats >= 3);
    expect(worker.claimant()).toBe(holder);
    await worker.beforeApplicationShutdown();
    expect(registry.left).toEqual([holder]);
    expect(worker.claimant()).toBeNull();
  });

  it('gives its claims up when its beats fail for nearly the dead window, then enters anew under another id', async () => {
    const holder = worker.claimant()!;
    const signal = worker.signalOf(holder);
    registry.down = true;
    const failing = Date.now();
    await until(() => signal.aborted);
    // Before the others may take over (250 ms after the last good beat; timers of a busy machine may run a little late).
    expect(Date.now() - failing).toBeLessThan(400);
    expect(worker.claimant()).toBeNull();
    expect(worker.holds(holder)).toBe(false);
    registry.down = false;
    await until(() => worker.claimant() !== null);
    expect(worker.claimant()).not.toBe(holder);
    expect(worker.signalOf(worker.claimant()!).aborted).toBe(false);
  });

  it('gives up at once when a beat finds it was taken for dead, and enters anew', async () => {
    const holder = worker.claimant()!;
    registry.alive.delete(holder);
    await until(() => worker.signalOf(holder).aborted);
    await until(() => worker.claimant() !== null);
    expect(worker.claimant()).not.toBe(holder);
  });

  it('gives up while a slow beat is on its way and leaves that row, so no claim stays held by nobody', async () => {
    const holder = worker.claimant()!;
    registry.delayMs = 400;
    await until(() => worker.signalOf(holder).aborted);
    await until(() => registry.left.includes(holder));
    expect(registry.alive.has(holder)).toBe(false);
  });

  it('tells its listeners when a beat removed dead instances', async () => {
    const heard: string[] = [];
    const unsubscribe = worker.onTakeover(() => heard.push('takeover'));
    registry.deadNext = 2;
    await until(() => heard.length > 0);
    expect(heard).toEqual(['takeover']);
    unsubscribe();
    registry.deadNext = 1;
    await until(() => registry.deadNext === 0);
    expect(heard).toEqual(['takeover']);
  });

  it('stops beating without leaving, as a killed instance would', async () => {
    const holder = worker.claimant()!;
    worker.stopBeating();
    const beats = registry.beats;
    await sleep(200);
    expect(registry.beats).toBe(beats);
    expect(registry.alive.has(holder)).toBe(true);
    expect(registry.left).toEqual([]);
  });
});

describe('the liveness settings', () => {
  it('refuse a dead window shorter than two beats', () => {
    expect(() => loadConfig({ SERVICE_INSTANCE_BEAT_MS: '1000', SERVICE_INSTANCE_DEAD_MS: '1500' })).toThrow('Invalid configuration: SERVICE_INSTANCE_DEAD_MS');
    expect(loadConfig({})).toMatchObject({ SERVICE_INSTANCE_BEAT_MS: 1000, SERVICE_INSTANCE_DEAD_MS: 5000 });
  });
});
