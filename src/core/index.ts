/** The streaming engine: no React, no DOM beyond web streams. */

export {
  apiKeyVariable,
  type CodeLanguage,
  type CodeRequest,
  codeLanguages,
  codeSnippet,
} from './codeSnippets.ts';
export type {
  AttachmentContent,
  ConversationMessage,
  HttpRequestSpec,
  ToolDefinition,
  TurnRequest,
} from './conversation.ts';
export { argumentsComplete, parseToolArguments, textFileBlock } from './conversation.ts';
export {
  type AttemptCost,
  attemptCost,
  type CostBreakdown,
  type CostLine,
  type CostSum,
  costCertainty,
  joinCosts,
  noCost,
  sumCosts,
} from './cost.ts';
export {
  adviseFailure,
  type FailureAdvice,
  type FailureCode,
  failureCodes,
  notSentCode,
} from './failureAdvice.ts';
export {
  type FinishNotice,
  type FinishNoticeCode,
  finishNotice,
  finishNoticeCodes,
} from './finishNotice.ts';
export type { HttpError } from './httpError.ts';
export { parseHttpError, retryAfterSeconds } from './httpError.ts';
export {
  inRange,
  keptParameters,
  type NumberParameter,
  type NumberRange,
  numberParameters,
  type ParameterSupport,
  type SamplingParameters,
} from './parameters.ts';
export {
  type ModelPrice,
  mergePrices,
  type PriceTable,
  priceFor,
  readPriceTable,
  type SkippedPrice,
} from './prices.ts';
export { type ModelInfo, modelListRequest, type ProtocolAdapter } from './protocols/adapter.ts';
export {
  adapters,
  authHeaders,
  buildRequest,
  parameterSupport,
  protocols,
  reasoningStateOf,
  recognizeProtocol,
  redactedAuthHeaders,
  requestProblem,
} from './protocols/index.ts';
export { defaultThinkingBudgets, minThinkingBudget } from './protocols/messages/reasoning.ts';
export { promptCacheField } from './protocols/promptCache.ts';
export type { ReadTurnOptions } from './readTurn.ts';
export { readTurn } from './readTurn.ts';
export type {
  ReasoningEffort,
  ReasoningLevel,
  ReasoningOptions,
  ReasoningState,
  RequestProblem,
} from './reasoning.ts';
export { reasoningLevels, unreplayableProtocols } from './reasoning.ts';
export {
  type RelayItem,
  type RelayOutcome,
  readRelayEvent,
  relayHeader,
  writeRelayEvent,
} from './relay.ts';
export { automaticRetryDelayMs, maxAutomaticRetries } from './retryPolicy.ts';
export { createSseParser, type SseParser, SseParserStream } from './sse/parser.ts';
export type { SseComment, SseEvent, SseItem } from './sse/types.ts';
export { fillTemplate, maxAutomaticRounds } from './tools/resultTemplate.ts';
export {
  type ReadSchema,
  type SchemaChecker,
  type SchemaProblem,
  schemaChecker,
  type Violation,
} from './tools/schemaCheck.ts';
export { type StructuredAnswer, structuredAnswerOf } from './tools/structuredAnswer.ts';
export { type OutputSchema, structuredOutputTool, type ToolChoice } from './tools/toolFields.ts';
export { silenceBeforeEnd, type TraceFigures, type TraceInput, traceFigures } from './traceFigures.ts';
export type {
  FinishReason,
  Protocol,
  ToolCall,
  Turn,
  TurnError,
  TurnPart,
  TurnStatus,
  Usage,
} from './turn.ts';
export { emptyTurn } from './turn.ts';
export { partsText, type TextKind } from './turnBuilder.ts';
export type { StallAssessment, StallThresholds, WatchState } from './watchdog.ts';
export {
  assessStall,
  defaultStallThresholds,
  noteBytes,
  noteKeepalive,
  noteOutput,
  startWatch,
} from './watchdog.ts';
export { yieldToEventLoop } from './yieldToEventLoop.ts';
