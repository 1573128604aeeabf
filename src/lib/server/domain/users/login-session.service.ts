import type { SessionUser } from '$lib/contracts/users';
import type { LoginSessionRepository } from '../../db/repositories/login-session.repository';
import type { DomainBus } from '../bus';
import { unlessUnavailable } from '../storage-retry';
import { hashSecret, newSessionToken, parseSessionToken, secretMatches } from './session-token';

const DAY = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY;
/** A session used in its last 15 days is extended to the full lifetime again. */
const RENEW_WITHIN_MS = 15 * DAY;

export interface ValidSession {
  sessionId: string;
  user: SessionUser;
  expiresAt: number;
  /** True when this check extended the expiry: the cookie should be set again. */
  renewed: boolean;
}

export class LoginSessionService {
  constructor(
    private readonly repo: LoginSessionRepository,
    private readonly bus: DomainBus,
    private readonly now: () => number = Date.now
  ) {}

  create(userId: string, meta: { ip: string | null; userAgent: string | null }) {
    const { id, secret, token } = newSessionToken();
    const now = this.now();
    const expiresAt = now + SESSION_LIFETIME_MS;
    this.repo.insert({
      id,
      userId,
      secretHash: hashSecret(secret),
      createdAt: now,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null
    });
    return { token, sessionId: id, expiresAt };
  }

  /** The session behind a cookie value, or null for anything invalid, expired or disabled. */
  validate(token: string | undefined | null): ValidSession | null {
    if (!token || token.length > 100) return null;
    const parsed = parseSessionToken(token);
    if (!parsed) return null;
    const found = this.repo.withUser(parsed.id);
    if (!found || !secretMatches(found.session.secretHash, parsed.secret)) return null;
    const now = this.now();
    if (found.session.expiresAt <= now) {
      // Tidying only: a locked database or full disk leaves the row for the hourly purge.
      unlessUnavailable(() => this.repo.delete(parsed.id));
      return null;
    }
    if (found.user.disabled) return null;
    let expiresAt = found.session.expiresAt;
    let renewed = false;
    // A renewal storage refuses (locked database, full disk) waits for a later request; the
    // session is still valid now.
    const renewal = now + SESSION_LIFETIME_MS;
    if (
      expiresAt - now < RENEW_WITHIN_MS &&
      unlessUnavailable(() => this.repo.extend(parsed.id, renewal))
    ) {
      expiresAt = renewal;
      renewed = true;
    }
    const { id, email, name, role } = found.user;
    return { sessionId: parsed.id, user: { id, email, name, role }, expiresAt, renewed };
  }

  end(sessionId: string, userId: string, reason: string): void {
    this.repo.delete(sessionId);
    this.bus.emit('sessions.ended', { userId, sessionIds: [sessionId], reason });
  }

  /** Ends every session of a user but `keep`, and closes their live connections. */
  endAllForUser(userId: string, reason: string, keep?: string): void {
    const ended = this.repo.deleteForUser(userId, keep);
    this.bus.emit('sessions.ended', { userId, sessionIds: ended, reason });
  }

  purgeExpired(): number {
    return this.repo.deleteExpired(this.now());
  }
}
