import { Foundation1763769600000 } from './1763769600000-foundation';
import { Tasks1763856000000 } from './1763856000000-tasks';
import { Runs1763942400000 } from './1763942400000-runs';
import { Webhooks1764028800000 } from './1764028800000-webhooks';
import { Lenses1764115200000 } from './1764115200000-lenses';
import { RankIndex1764201600000 } from './1764201600000-rank-index';
import { LeanTaskWrites1764288000000 } from './1764288000000-lean-task-writes';
import { CreateTaskFunction1764374400000 } from './1764374400000-create-task-function';
import { AccountSecurity1764460800000 } from './1764460800000-account-security';
import { AccessNotices1764547200000 } from './1764547200000-access-notices';
import { Attachments1764633600000 } from './1764633600000-attachments';
import { Ships1764720000000 } from './1764720000000-ships';
import { TaskSources1764806400000 } from './1764806400000-task-sources';
import { ListsCharts1764892800000 } from './1764892800000-lists-charts';
import { ProjectTaskCount1765000200000 } from './1765000200000-project-task-count';
import { FairMailFiles1765000300000 } from './1765000300000-fair-mail-files';
import { ProjectKeyPrefix1765000400000 } from './1765000400000-project-key-prefix';
import { Search1765000500000 } from './1765000500000-search';
import { AgentsAtWork1765000800000 } from './1765000800000-agents-at-work';
import { OpenRunsIndex1765000900000 } from './1765000900000-open-runs-index';
import { Notifications1765001100000 } from './1765001100000-notifications';
import { SecurityLog1765001500000 } from './1765001500000-security-log';
import { Totp1765001510000 } from './1765001510000-totp';
import { DeletedTasksByProject1765001520000 } from './1765001520000-deleted-tasks-by-project';
import { OidcIdentities1765001530000 } from './1765001530000-oidc-identities';
import { InstanceLiveness1765001600000 } from './1765001600000-instance-liveness';
import { MovesByNeighbours1765001700000 } from './1765001700000-moves-by-neighbours';
import { CredentialNotices1765001800000 } from './1765001800000-credential-notices';

/** Every migration in order; new ones are appended, never edited once landed. */
export const MIGRATIONS = [
  Foundation1763769600000, Tasks1763856000000, Runs1763942400000, Webhooks1764028800000, Lenses1764115200000, RankIndex1764201600000,
  LeanTaskWrites1764288000000,
  CreateTaskFunction1764374400000,
  AccountSecurity1764460800000,
  AccessNotices1764547200000,
  Attachments1764633600000,
  Ships1764720000000,
  TaskSources1764806400000,
  ListsCharts1764892800000,
  ProjectTaskCount1765000200000,
  FairMailFiles1765000300000,
  ProjectKeyPrefix1765000400000,
  Search1765000500000,
  AgentsAtWork1765000800000,
  OpenRunsIndex1765000900000,
  Notifications1765001100000,
  SecurityLog1765001500000,
  Totp1765001510000,
  DeletedTasksByProject1765001520000,
  OidcIdentities1765001530000,
  InstanceLiveness1765001600000,
  MovesByNeighbours1765001700000,
  CredentialNotices1765001800000,
];
