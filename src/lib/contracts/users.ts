import { z } from 'zod';
import { roleSchema } from './roles';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));
/** Long passphrases welcome; the upper bound keeps argon2 work bounded. */
export const passwordSchema = z
  .string()
  .min(10, 'Use at least 10 characters')
  .max(256, 'Use at most 256 characters');

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: z.number(),
  lastLoginAt: z.number().nullable()
});
export type User = z.infer<typeof userSchema>;

/** What a page knows about whoever is signed in. */
export type SessionUser = Pick<User, 'id' | 'email' | 'name' | 'role'>;

export const loginInput = z.object({ email: emailSchema, password: z.string().min(1).max(256) });

export const createUserInput = z.object({
  email: emailSchema,
  name: z.string().trim().min(1).max(100),
  role: roleSchema,
  password: passwordSchema
});
export type CreateUserInput = z.infer<typeof createUserInput>;

export const setupInput = createUserInput.omit({ role: true });

export const setRoleInput = z.object({ userId: z.string().min(1), role: roleSchema });
export const setDisabledInput = z.object({ userId: z.string().min(1), disabled: z.boolean() });
export const resetPasswordInput = z.object({ userId: z.string().min(1), password: passwordSchema });
export const changeOwnPasswordInput = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: passwordSchema
});
