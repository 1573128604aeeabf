import { trpc } from '$lib/client/trpc';
import type { Role } from '$lib/contracts/roles';
import type { CreateUserInput, User } from '$lib/contracts/users';

/** The users table: loaded once over tRPC, then kept current by mutations and `user.changed`. */
export class UsersState {
  users = $state<User[]>([]);
  loaded = $state(false);

  async load(): Promise<void> {
    this.users = await trpc.users.list.query();
    this.loaded = true;
  }

  /** Replaces the user's row, or adds it if it is new. */
  upsert(user: User): void {
    const index = this.users.findIndex((u) => u.id === user.id);
    if (index === -1) this.users.push(user);
    else this.users[index] = user;
  }

  async create(input: CreateUserInput): Promise<User> {
    const user = await trpc.users.create.mutate(input);
    this.upsert(user);
    return user;
  }

  async setRole(userId: string, role: Role): Promise<User> {
    const user = await trpc.users.setRole.mutate({ userId, role });
    this.upsert(user);
    return user;
  }

  async setDisabled(userId: string, disabled: boolean): Promise<User> {
    const user = await trpc.users.setDisabled.mutate({ userId, disabled });
    this.upsert(user);
    return user;
  }

  async resetPassword(userId: string, password: string): Promise<User> {
    const user = await trpc.users.resetPassword.mutate({ userId, password });
    this.upsert(user);
    return user;
  }
}
