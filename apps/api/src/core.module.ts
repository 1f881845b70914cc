import { DynamicModule, Global, Module } from '@nestjs/common';
import { CommonPasswords, PasswordHasher, Throttle, ThrottleRepository } from '@board/accounts';
import { Clock, Liveness, Mailer, Metrics, NoMetrics, SystemClock } from '@board/kernel';
import { Argon2PasswordHasher, PromMetrics, SecListsCommonPasswords, SmtpMailer } from '@board/platform';
import { AppConfig } from './config/app-config';
import { LivenessWorker } from './system/liveness.worker';
import { SERVICE_VERSION } from './system/version';

/** Settings, the clock, the metrics, this instance's liveness and other adapters every feature module may inject. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    const providers = [
      { provide: AppConfig, useValue: config },
      { provide: Clock, useValue: clock ?? new SystemClock() },
      { provide: PasswordHasher, useClass: Argon2PasswordHasher },
      { provide: CommonPasswords, useClass: SecListsCommonPasswords },
      { provide: Throttle, useFactory: (store: ThrottleRepository, c: Clock) => new Throttle(store, c), inject: [ThrottleRepository, Clock] },
      { provide: Mailer, useValue: new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) },
      // Counted only while someone may read them (SERVICE_METRICS_TOKEN); one registry per app.
      { provide: Metrics, useValue: config.SERVICE_METRICS_TOKEN ? new PromMetrics({ version: SERVICE_VERSION }) : new NoMetrics() },
      // This instance among the others: what its workers claim is taken over soon after it dies.
      { provide: LivenessWorker, useClass: LivenessWorker },
      { provide: Liveness, useExisting: LivenessWorker },
    ];
    return { module: CoreModule, providers, exports: providers.map((p) => p.provide) };
  }
}
