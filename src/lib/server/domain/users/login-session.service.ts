import type { SessionUser } from '$lib/contracts/users';
import type { LoginSessionRepository } from '../../db/repositories/login-session.repository';
import type { DomainBus } from '../bus';
import { unlessUnavailable } from '../storage-retry';
import { hashSecret, newSessionToken, parseSessionToken, secretMatches } from './session-token';

const DAY = 24 * 60 * 60 * 1000;
/** A session unused this long ends (idle expiry). */
export const SESSION_IDLE_MS = 7 * DAY;
/** A session ends this long after sign-in however much it is used; only signing in again helps. */
export const SESSION_ABSOLUTE_MS = 30 * DAY;
/** The idle expiry moves on at most once a day, so use does not mean a write per request. */
const RENEW_AFTER_MS = DAY;

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
    const expiresAt = now + SESSION_IDLE_MS;
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
    const endsAt = found.session.createdAt + SESSION_ABSOLUTE_MS;
    if (found.session.expiresAt <= now || endsAt <= now) {
      // Tidying only: a locked database or full disk leaves the row for the hourly purge.
      unlessUnavailable(() => this.repo.delete(parsed.id));
      return null;
    }
    if (found.user.disabled) return null;
    let expiresAt = found.session.expiresAt;
    let renewed = false;
    // Renewal moves only the idle expiry, and never past the absolute end. A renewal storage
    // refuses (locked database, full disk) waits for a later request; the session is still valid.
    const next = Math.min(now + SESSION_IDLE_MS, endsAt);
    if (
      next - expiresAt >= RENEW_AFTER_MS &&
      unlessUnavailable(() => this.repo.extend(parsed.id, next))
    ) {
      expiresAt = next;
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
    const now = this.now();
    return this.repo.deleteExpired(now, now - SESSION_ABSOLUTE_MS);
  }
}
