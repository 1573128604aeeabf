import type { Role } from '$lib/contracts/roles';
import type { CreateUserInput, User } from '$lib/contracts/users';
import type { UserRepository, UserRow } from '../../db/repositories/user.repository';
import type { Actor, AuditService } from '../audit/audit.service';
import type { DomainBus } from '../bus';
import { conflict, DomainError, invalid, notFound } from '../../errors';
import type { LoginSessionService } from './login-session.service';
import type { LoginThrottle } from './login-throttle';
import { dummyHash, hashPassword, verifyPassword } from './password';

export type LoginResult =
  | { ok: true; user: User; token: string; expiresAt: number }
  | { ok: false; reason: 'invalid' }
  /** Only said to someone who gave the right password: it tells nobody else the account exists. */
  | { ok: false; reason: 'disabled' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: LoginSessionService,
    private readonly audit: AuditService,
    /** Guessing is slowed per account and, more loosely (shared NATs), per client address. */
    private readonly throttle: { account: LoginThrottle; address: LoginThrottle },
    private readonly bus: DomainBus
  ) {}

  hasUsers(): boolean {
    return this.users.count() > 0;
  }

  list(): User[] {
    return this.users.list().map(toUser);
  }

  get(id: string): User {
    const row = this.users.byId(id);
    if (!row) throw notFound('User');
    return toUser(row);
  }

  /** The first admin: succeeds only while no user exists at all. */
  async createFirstAdmin(input: Omit<CreateUserInput, 'role'>, actor: Actor): Promise<User> {
    const row = this.users.insertIfNone({
      id: crypto.randomUUID(),
      email: input.email,
      name: input.name,
      role: 'admin',
      passwordHash: await hashPassword(input.password)
    });
    if (!row) throw conflict('Berth is already set up');
    this.audit.record({ ...actor, id: row.id, email: row.email }, 'user.setup', row.email, {
      role: 'admin'
    });
    return toUser(row);
  }

  async create(input: CreateUserInput, actor: Actor): Promise<User> {
    if (this.users.byEmail(input.email)) throw conflict(`A user with e-mail ${input.email} exists`);
    const row = this.users.insert({
      id: crypto.randomUUID(),
      email: input.email,
      name: input.name,
      role: input.role,
      passwordHash: await hashPassword(input.password)
    });
    this.audit.record(actor, 'user.create', row.email, { role: row.role });
    return this.#changed(row);
  }

  setRole(userId: string, role: Role, actor: Actor): User {
    const row = this.#row(userId);
    if (row.role === role) return toUser(row);
    if (row.role === 'admin' && !row.disabled) this.#keepOneAdmin();
    const updated = this.users.update(userId, { role })!;
    this.audit.record(actor, 'user.role', row.email, { from: row.role, to: role });
    return this.#changed(updated);
  }

  setDisabled(userId: string, disabled: boolean, actor: Actor): User {
    const row = this.#row(userId);
    if (row.disabled === disabled) return toUser(row);
    if (disabled && actor.id === userId) throw invalid('You cannot disable your own account');
    if (disabled && row.role === 'admin') this.#keepOneAdmin();
    const updated = this.users.update(userId, { disabled })!;
    if (disabled) this.sessions.endAllForUser(userId, 'account disabled');
    this.audit.record(actor, disabled ? 'user.disable' : 'user.enable', row.email);
    return this.#changed(updated);
  }

  /** An admin sets someone's password: all of that user's sessions end. */
  async resetPassword(userId: string, password: string, actor: Actor): Promise<User> {
    const row = this.#row(userId);
    const updated = this.users.update(userId, { passwordHash: await hashPassword(password) })!;
    this.sessions.endAllForUser(userId, 'password changed');
    this.audit.record(actor, 'user.password.reset', row.email);
    return this.#changed(updated);
  }

  /** A user changes their own password: every other session of theirs ends. */
  async changeOwnPassword(
    userId: string,
    current: string,
    next: string,
    keepSessionId: string,
    actor: Actor
  ): Promise<void> {
    const row = this.#row(userId);
    if (!(await verifyPassword(row.passwordHash, current)))
      throw invalid('The current password is not right');
    this.users.update(userId, { passwordHash: await hashPassword(next) });
    this.sessions.endAllForUser(userId, 'password changed', keepSessionId);
    this.audit.record(actor, 'user.password.change', row.email);
  }

  async login(
    email: string,
    password: string,
    meta: { ip: string | null; userAgent: string | null }
  ): Promise<LoginResult> {
    const account = [email];
    const address = [meta.ip ?? 'unknown'];
    const waitMs = Math.max(
      this.throttle.account.waitMs(account),
      this.throttle.address.waitMs(address)
    );
    if (waitMs > 0) {
      this.audit.record({ id: null, email, ip: meta.ip }, 'login.throttled', email);
      return { ok: false, reason: 'throttled', retryAfterSeconds: Math.ceil(waitMs / 1000) };
    }
    const row = this.users.byEmail(email);
    const matches = await verifyPassword(row?.passwordHash ?? (await dummyHash()), password);
    if (!row || !matches || row.disabled) {
      this.throttle.account.fail(account);
      this.throttle.address.fail(address);
      const why = !row
        ? 'unknown account'
        : row.disabled && matches
          ? 'account disabled'
          : 'wrong password';
      this.audit.record({ id: row?.id ?? null, email, ip: meta.ip }, 'login.failed', email, {
        why
      });
      return { ok: false, reason: why === 'account disabled' ? 'disabled' : 'invalid' };
    }
    // Only the account is cleared: one good login must not reset an address's guesses.
    this.throttle.account.succeed(account);
    const session = this.sessions.create(row.id, meta);
    const updated = this.users.update(row.id, { lastLoginAt: Date.now() })!;
    this.audit.record({ id: row.id, email: row.email, ip: meta.ip }, 'login', row.email);
    return { ok: true, user: toUser(updated), token: session.token, expiresAt: session.expiresAt };
  }

  logout(sessionId: string, actor: Actor & { id: string }): void {
    this.sessions.end(sessionId, actor.id, 'logged out');
    this.audit.record(actor, 'logout', actor.email);
  }

  #row(userId: string): UserRow {
    const row = this.users.byId(userId);
    if (!row) throw notFound('User');
    return row;
  }

  #keepOneAdmin(): void {
    if (this.users.countActiveAdmins() <= 1)
      throw new DomainError('CONFLICT', 'Berth needs at least one active admin');
  }

  #changed(row: UserRow): User {
    const user = toUser(row);
    this.bus.emit('user.changed', user);
    return user;
  }
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    createdAt: row.createdAt,
    lastLoginAt: row.lastLoginAt ?? null
  };
}
