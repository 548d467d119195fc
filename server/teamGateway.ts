import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorKind } from '../simulator/errors.ts';
import { adapters, type Protocol, protocols } from '../src/core/index.ts';
import { personOf } from './auth/routes.ts';
import type { PersonLimits } from './config.ts';
import { isClientId } from './db/database.ts';
import type { Person } from './db/storage.ts';
import { requestSource } from './security.ts';
import type { TeamServer } from './team.ts';
import { type MeterOptions, meterAnswer } from './usageMeter.ts';

/** A refusal, answered in the protocol's own error shape, with its headers (`Retry-After`). */
export interface GatewayRefusal {
  status: number;
  kind: ErrorKind;
  message: string;
  code?: string;
  headers?: Record<string, string>;
}

/**
 * The conversation an attempt is recorded under when the client names none (`x-hopbase-conversation`):
 * a client id never looks like this (the app's are `conv_…`), so such attempts stay apart.
 */
const NO_CONVERSATION = '(none)';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The protocol whose path this is (`/v1/messages` → messages); undefined: the model list, and the rest. */
export function protocolAt(path: string): Protocol | undefined {
  return protocols.find((protocol) => `/v1${adapters[protocol].path}` === path);
}

/** A header naming a client id: undefined when absent, null when it is no id (too long, empty, given twice). */
function clientIdHeader(req: IncomingMessage, name: string): string | undefined | null {
  const value = req.headers[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' && isClientId(value) ? value : null;
}

const tooMany = (message: string, retryAfterS: number): GatewayRefusal => ({
  status: 429,
  kind: 'rate_limit',
  code: 'rate_limit_exceeded',
  message,
  headers: { 'retry-after': String(retryAfterS) },
});

/**
 * Whether the person may ask a model now: their tokens of today (UTC) under the daily limit, then a slot
 * in their last minute's requests (taken here: a request refused for its tokens takes none). Retry-After
 * is when it would be admitted: the next midnight UTC, or when the oldest request of the minute turns a
 * minute old.
 */
async function overLimit(person: Person, limits: PersonLimits, now: number): Promise<GatewayRefusal | null> {
  if (limits.tokensPerDay > 0) {
    const used = await person.usage.tokensOn(new Date(now).toISOString().slice(0, 10));
    if (used >= limits.tokensPerDay) {
      const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
      return tooMany(
        `You have used ${used} tokens today, the most a person may use in a day on this server (HOPBASE_USER_TOKENS_PER_DAY is ${limits.tokensPerDay}): more from midnight UTC.`,
        Math.ceil((midnight - now) / 1000),
      );
    }
  }
  if (limits.requestsPerMinute > 0) {
    const admission = await person.recentRequests.admit(limits.requestsPerMinute);
    if (!admission.admitted)
      return tooMany(
        `You have sent the most requests a person may send in a minute on this server (HOPBASE_USER_REQUESTS_PER_MINUTE is ${limits.requestsPerMinute}): wait for a slot to free.`,
        Math.max(1, Math.ceil(admission.retryAfterMs / 1000)),
      );
  }
  return null;
}

export interface TeamGatewayHandlers {
  /** Answers the request with this error, in its protocol's shape. */
  refuse(refusal: GatewayRefusal): void;
  /** Hands the request to the backend (the gateway's proxy, or the simulator), neither limited nor metered. */
  forward(): void;
  /**
   * A request that asks a model, from a signed-in person: answered by `serveMetered`, or run by the relay
   * (`relay/runner.ts`), which checks the same limits (`admit`) and records the usage the same way (`meter`).
   */
  answer(request: PersonRequest): void;
  log(line: string): void;
}

/** A signed-in person's request to a model, not yet admitted. */
export interface PersonRequest {
  userId: string;
  /** The attempt and conversation the page named (`x-hopbase-attempt`, `x-hopbase-conversation`). */
  attemptId: string | undefined;
  conversationId: string | undefined;
  /** Checks the person's limits and, if they admit the request, counts it; a refusal otherwise. */
  admit(): Promise<GatewayRefusal | null>;
  /** Where the answer's usage goes. */
  meter: MeterOptions;
}

/**
 * `/v1` in team mode. Signed-in people only (anyone else gets 401: the gateway and the operator's key are
 * never theirs); a request that asks a model is held to the person's limits, then its answer's usage is
 * recorded (`usageMeter.ts`). The model list costs nothing and is neither counted nor metered, nor is a
 * request another site's page sent: the backend refuses it (only the simulator, which costs nothing,
 * serves it), and it must not use up the person's limits.
 */
export async function serveTeamGateway(
  team: TeamServer,
  req: IncomingMessage,
  path: string,
  on: TeamGatewayHandlers,
): Promise<void> {
  const user = await personOf(team.auth, req);
  if (!user) {
    on.refuse({
      status: 401,
      kind: 'authentication',
      message: 'Sign in to use this server: open the app and sign in.',
    });
    return;
  }
  const protocol = req.method === 'POST' ? protocolAt(path) : undefined;
  if (!protocol || requestSource(req) === 'cross-site') {
    on.forward();
    return;
  }
  const attemptId = clientIdHeader(req, 'x-hopbase-attempt');
  const conversationId = clientIdHeader(req, 'x-hopbase-conversation');
  if (attemptId === null || conversationId === null) {
    on.refuse({
      status: 400,
      kind: 'invalid_request',
      message:
        'x-hopbase-attempt and x-hopbase-conversation, when sent, must each be one id of 1 to 200 characters.',
    });
    return;
  }
  const person = team.storage.forUser(user.id);
  on.answer({
    userId: user.id,
    attemptId,
    conversationId,
    admit: () => overLimit(person, team.limits, Date.now()),
    meter: {
      protocol,
      attemptId,
      conversationId: conversationId ?? NO_CONVERSATION,
      startedAt: new Date(),
      usage: person.usage,
      log: on.log,
    },
  });
}

/** A person's request answered as the backend answers it, once admitted, its usage recorded. */
export async function serveMetered(
  req: IncomingMessage,
  res: ServerResponse,
  request: PersonRequest,
  on: Pick<TeamGatewayHandlers, 'refuse' | 'forward'>,
): Promise<void> {
  const refusal = await request.admit();
  if (refusal) {
    on.refuse(refusal);
    return;
  }
  void meterAnswer(req, res, request.meter, on.forward);
}
