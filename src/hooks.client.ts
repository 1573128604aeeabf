import type { HandleClientError } from '@sveltejs/kit';
import { isUnreachable, UNREACHABLE } from '$lib/client/unreachable';

/** A navigation whose data could not be fetched says so, rather than "Internal Error". */
export const handleError: HandleClientError = ({ error, message }) =>
  isUnreachable(error) ? { message: UNREACHABLE, unreachable: true } : { message };
