import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayDeps } from '../gateway.deps';
import { sendProblem, toProblem } from './problem';
import { authenticateRest, type RestAccess, type RestCaller } from './rest.auth';

export interface RestContext {
  req: IncomingMessage;
  res: ServerResponse;
  pathname: string;
  caller: RestCaller;
  deps: GatewayDeps;
}

export type RestHandler = (ctx: RestContext) => void | Promise<void>;

/** Authenticates, runs the handler, and answers anything it throws as problem+json. */
export function restHandler(deps: GatewayDeps, access: RestAccess, handler: RestHandler) {
  return async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    try {
      const caller = authenticateRest(deps, req, res, access);
      await handler({ req, res, pathname, caller, deps });
    } catch (err) {
      const problem = toProblem(err, deps.logger);
      sendProblem(res, problem.status, problem.detail, problem.headers);
    }
  };
}
