/**
 * English: the source of truth. Every other catalog has exactly these keys, with the same placeholders
 * (`catalogs.test.ts`). Messages are ICU MessageFormat: `{name}` a value, `{n, number}` a number in the
 * language's format, `{n, plural, …}` and `{kind, select, …}` the forms that depend on a value, `<strong>`
 * markup the component supplies. A message is one whole sentence or label, never a piece of one.
 */
export const en = {
  // The app and its toolbar
  'app.closeConversations': 'Close conversations',
  'toolbar.conversations': 'Conversations',
  'toolbar.usage':
    '<label>Conversation:</label> {input, number} in · {output, number} out · {total, number} total',
  'toolbar.usage.title': 'Tokens billed in this conversation, every attempt included',
  'toolbar.recordings': 'Recordings',
  'toolbar.recordings.title': 'Import and replay a recorded stream',
  'toolbar.settings': 'Settings',
  'protocol.label': 'Protocol',
  'model.label': 'Model',
  'model.loading': '{model} (loading models…)',
  'model.withDescription': '{model} — {description}',
  'model.reload': 'Reload models',
  'model.error.status': 'The model list could not be loaded (HTTP {status}).',
  'model.error.baseUrl': 'The gateway base URL in Settings is not a complete http(s) address.',
  'model.error.policy':
    "This server's security policy does not allow connecting to {origin}: ask the operator to add it to HOPBASE_CONNECT_SRC, or leave the base URL empty.",
  'reasoning.label': 'Reasoning',
  'reasoning.level': '{level, select, off {Off} low {Low} medium {Medium} high {High} other {{level}}}',
  'reasoning.explain.off': "{protocol}: no reasoning parameter (the model's own default)",
  'reasoning.explain.chat': '{protocol}: reasoning_effort "{level}"',
  'reasoning.explain.responses': '{protocol}: reasoning effort "{level}" with its summary streamed',
  'reasoning.explain.messages': '{protocol}: thinking with a budget of {budget, number} tokens (Settings)',

  // Compare: models side by side (src/components/compare/)
  'compare.button': 'Compare',
  'compare.button.title': 'Compare models side by side: one message to every column',
  'compare.region': 'Compare',
  'compare.column': 'Column {n, number}',
  'compare.addColumn': 'Add column',
  'compare.removeColumn': 'Remove column',
  'compare.hint':
    'Your next message goes to every column at once. Each answer stays in the conversation as a version; the one you keep is the one it continues from.',
  'compare.prompt': 'Prompt: {text}',
  'compare.noAnswer': 'No answer in this column yet.',
  'compare.keep': 'Keep this answer',
  'compare.kept': "The conversation's answer",

  // Words used in many places
  'load.failed':
    'This part of the app could not be loaded: the connection may be down, or a newer version of the app was put online. Reload the page to get it; what you typed and your conversations are kept.',
  'action.retry': 'Retry',
  'action.stop': 'Stop',
  'action.close': 'Close',
  'action.save': 'Save',
  'action.dismiss': 'Dismiss',
  'action.reload': 'Reload',
  'copy.copied': 'Copied',
  'copy.failed': 'Copy failed',

  // Banners
  'banner.lead': '<strong>{title}.</strong> {advice}',
  'autoRetry.announce':
    'The request failed before any output. Retrying automatically shortly: attempt {attempt} of {of}.',
  'autoRetry.countdown': 'Retrying automatically in {seconds} (attempt {attempt} of {of}).',
  'autoRetry.cancel': 'Cancel retry',
  'stall.silent.announce':
    'The model has stopped producing output, but the connection is alive. You can wait, retry or stop.',
  'stall.dead.announce':
    'The connection looks dead: nothing has arrived for a while, not even a keepalive. Retrying is probably the quickest way to an answer.',
  'stall.silent.keepalive':
    '<strong>The model has produced nothing for {silent}.</strong> The connection is alive (last keepalive {ago} ago). The gateway gives up on a silent model after about 90–150 s.',
  'stall.silent.bytes':
    '<strong>The model has produced nothing for {silent}.</strong> The connection is alive (last bytes {ago} ago). The gateway gives up on a silent model after about 90–150 s.',
  'relay.reconnecting.announce':
    'The connection to the server was lost. The answer goes on on the server; reconnecting.',
  'relay.reconnecting':
    '<strong>Reconnecting to the server.</strong> The answer goes on there, and continues here from where it was as soon as the page is back in touch.',
  'stall.dead':
    '<strong>The connection looks dead.</strong> Nothing has arrived for {ago}, not even a keepalive (the gateway sends one about every 10 s). Retrying is probably the quickest way to an answer.',
  'interruption.text':
    '<strong>{title}.</strong> {advice}{silence, select, none {} other { The model had produced nothing for {silence} before this.}}{partial, select, yes { The partial answer above is kept, and what was produced is billed.} other {}}',
  'interruption.details': 'Details',
  'interruption.requestId': 'Request id: {id}',
  'interruption.retryIn': 'You can retry in {seconds}',

  // What went wrong (src/core/failureAdvice.ts names the code)
  'failure.http_400.title': 'The gateway rejected the request',
  'failure.http_400.advice':
    'A parameter or the history is not accepted by this model. Check the details below, change the settings, and send again.',
  'failure.http_401.title': 'The API key was not accepted',
  'failure.http_401.advice': 'Open Settings and check the API key.',
  'failure.http_403.title': 'Access denied',
  'failure.http_403.advice':
    'This key may not use this model or region. Check the key and the model in Settings.',
  'failure.http_404.title': 'Not found',
  'failure.http_404.advice':
    'The model or the path does not exist on this gateway. Pick another model or check the base URL in Settings.',
  'failure.http_408.title': 'The request timed out',
  'failure.http_408.advice': 'Try again.',
  'failure.http_413.title': 'The request is too large',
  'failure.http_413.advice': 'Shorten the prompt or start a new conversation with less history.',
  'failure.http_422.title': 'The request could not be processed',
  'failure.http_422.advice': 'Check the details below.',
  'failure.http_429.title': 'Rate limit reached',
  'failure.http_429.advice': 'Too many requests for now. Wait a moment, then retry.',
  'failure.http_500.title': 'The gateway had an internal error',
  'failure.http_500.advice': 'This is usually temporary. Retry in a moment.',
  'failure.http_502.title': 'Bad gateway',
  'failure.http_502.advice': 'A proxy in front of the model failed. Retry in a moment.',
  'failure.http_503.title': 'Service unavailable',
  'failure.http_503.advice': 'The model is overloaded or down for now. Retry in a moment.',
  'failure.http_504.title': 'Gateway timeout',
  'failure.http_504.advice': 'The model took too long to start answering. Retry in a moment.',
  'failure.http_529.title': 'The model is overloaded',
  'failure.http_529.advice': 'Anthropic is under heavy load. Retry in a moment.',
  'failure.http_status.title': 'The gateway answered HTTP {status}',
  'failure.http_status.advice': 'Check the details below.',
  'failure.http_status_retryable.title': 'The gateway answered HTTP {status}',
  'failure.http_status_retryable.advice': 'Retry in a moment.',
  'failure.rate_limit_mid_answer.title': 'Rate limit reached mid-answer',
  'failure.rate_limit_mid_answer.advice':
    'The answer was cut off by a rate limit. Wait a moment, then retry the whole request.',
  'failure.insufficient_quota.title': 'Quota exhausted',
  'failure.insufficient_quota.advice':
    'The account has no quota left. Retrying will not help until the plan or billing is fixed.',
  'failure.server_error.title': 'The model failed mid-answer',
  'failure.server_error.advice':
    'A server error broke the stream. Partial output cannot be resumed: retry sends the whole request again.',
  'failure.invalid_prompt.title': 'The prompt was rejected',
  'failure.invalid_prompt.advice':
    'The model refused this prompt as it is. Change the message before sending again; retrying unchanged will fail again.',
  'failure.api_error.title': 'The stream was interrupted',
  'failure.api_error.advice':
    'The gateway lost the model mid-answer. Partial output cannot be resumed: retry sends the whole request again.',
  'failure.overloaded_error.title': 'The model is overloaded',
  'failure.overloaded_error.advice':
    'The model stopped mid-answer because it is overloaded. Retry in a moment.',
  'failure.timeout_error.title': 'The model timed out',
  'failure.timeout_error.advice': 'Retry the whole request.',
  'failure.malformed_event.title': 'The stream was corrupted',
  'failure.malformed_event.advice':
    'The server sent an event that could not be read: not valid JSON, a known event missing a field it must have, or a second answer mixed into this one (the details name it). The gateway or a proxy in front of it sent it so; the connection itself was fine. Retry the request.',
  'failure.too_large.title': 'The answer is too large to keep',
  'failure.too_large.advice':
    'It passed what HopBase Chat keeps of one answer ({answerChars, number} characters of text, reasoning and tool arguments, or {eventChars, number} in one event), so reading stopped there and the request was cancelled. Everything up to that point is kept. Retrying will run into the same limit: ask for a shorter answer instead.',
  'failure.app_error.title': 'HopBase Chat failed while handling this answer',
  'failure.app_error.advice':
    'This is a bug in the app, not a problem with the network or the gateway. Retry sends the same request again; if it happens again, export the recording (Inspect, then Export) and report it.',
  'failure.interrupted.title': 'The connection closed early',
  'failure.interrupted.advice':
    'The stream ended without its final event: a proxy or the network may have cut it. Retry sends the whole request again.',
  'failure.page_reloaded.title': 'Interrupted by a reload',
  'failure.page_reloaded.advice':
    'The page was closed while this answer streamed. Retry sends the same request again.',
  'failure.aborted.title': 'Stopped',
  'failure.aborted.advice': 'You stopped this answer. Retry sends the same request again.',
  'failure.network_error.title': 'Could not reach the gateway',
  'failure.network_error.advice': 'Check the connection and the base URL in Settings.',
  'failure.blocked_by_policy.title': 'This page may not connect to that gateway',
  'failure.blocked_by_policy.advice':
    "The server's security policy (Content-Security-Policy, connect-src) does not list the gateway's origin. Ask the operator to add it to HOPBASE_CONNECT_SRC, or leave the base URL in Settings empty to use this server's /v1 proxy.",
  'failure.unexpected_response.title': 'Unexpected response',
  'failure.unexpected_response.advice':
    'The gateway did not answer with an event stream. Check the base URL in Settings.',
  'failure.attachment_missing.title': 'An attached file is no longer stored',
  'failure.attachment_missing.advice':
    'Its bytes are gone from this browser (its storage was full when the message was sent, or has been cleared since), so the request cannot be sent as it was. Send the message again with the file attached.',
  'failure.not_sent.title': 'Not sent: the API would refuse these settings',
  'failure.not_sent.advice':
    '{problem, select, budget_too_small {Anthropic Messages needs a thinking budget of at least {min, number} tokens (it is {budget, number}). Change it in Settings → Reasoning.} limit_not_above_budget {Anthropic Messages needs the output limit above the thinking budget: Max output tokens is {limit, number}, the {effort, select, low {low} medium {medium} other {high}} budget {budget, number}. Raise Max output tokens in Parameters (or leave it empty), lower the budget in Settings, or pick a lower Reasoning level.} temperature_while_thinking {Anthropic Messages does not take a temperature while thinking (it is {temperature, number}). Clear Temperature in Parameters, or set Reasoning to Off.} top_p_while_thinking {Anthropic Messages takes a Top P of {min, number} to 1 only while thinking (it is {topP, number}). Raise or clear Top P in Parameters, or set Reasoning to Off.} forced_tool_while_thinking {Anthropic Messages cannot think while a tool call is forced ({forced, select, required {Tool choice is Required} tool {Tool choice names one tool} other {an answer schema is set, which Anthropic gets as a forced tool}}). In Tools, set Tool choice to Auto{forced, select, structured { or clear the answer schema} other {}}, or set Reasoning to Off.} parameter_out_of_range {{api} does not take {name, select, temperature {Temperature} topP {Top P} maxOutputTokens {Max output tokens} seed {Seed} presencePenalty {Presence penalty} other {Frequency penalty}} {value, number}: {whole, select, yes {it takes a whole number} other {it takes a number}} {max, select, none {of at least {min, number}} other {from {min, number} to {max, number}}}. Change it in Parameters.} too_many_stop_sequences {{api} takes at most {max, number} stop sequences (there are {count, number}). Remove some in Parameters.} other {{problem}}}',
  'failure.stream_error.title': 'The model reported an error',
  'failure.stream_error.advice': 'The stream ended with an error. Retry sends the whole request again.',

  // Endings that are not the whole answer (src/core/finishNotice.ts names the code)
  'finish.context_window.title': "The conversation filled the model's context window",
  'finish.context_window.advice':
    '{shown, select, yes {What came before is shown. } other {}}Start a new conversation, or one with less history, to go on.',
  'finish.output_limit.title':
    'The answer hit the output token limit{withRaw, select, yes { ({raw})} other {}}',
  'finish.output_limit.advice':
    '{cut, select, yes {Its last tool call was cut off too, so it cannot be run. } other {}}Raise "Max output tokens" in Settings and send the question again, or ask the model to continue.',
  'finish.content_filter.title':
    "The provider's content filter stopped the answer{withRaw, select, yes { ({raw})} other {}}",
  'finish.content_filter.advice':
    '{shown, select, yes {What came before is shown. } other {}}Rephrasing the request may help.',
  'finish.refusal.title': 'The model declined to answer{withRaw, select, yes { ({raw})} other {}}',
  'finish.refusal.advice': '{shown, select, yes {What came before is shown.} other {}}',
  'finish.pause_turn.title': 'The model paused a long-running step (pause_turn)',
  'finish.pause_turn.advice':
    '{shown, select, yes {What came before is shown. } other {}}This app does not resume such a step: send the question again to start it over.',

  // Storage
  'storage.loadError':
    'Saved conversations could not be read: {error} Nothing stored has been changed, and this tab will not overwrite it: new conversations are saved beside it. Reloading the page may read it again.',
  'address.missing':
    'No conversation of yours has this address. It may have been deleted, or the link may be someone else’s.',
  'signIn.title': 'Sign in to HopBase Chat',
  'signIn.oidc':
    'This HopBase Chat is shared by a team. Sign in to see your conversations, on every device you use.',
  'signIn.button': 'Sign in',
  'signIn.header':
    'The sign-in service in front of this server did not say who you are. Reload the page, or ask whoever runs this server.',
  'account.label': 'Your account',
  'account.sync':
    '{state, select, connecting {Connecting to the server…} live {Saved on the server} offline {Offline: changes are kept here and sent when the server is back} other {Signed out: changes are kept here}}',
  'account.pending':
    '{n, plural, one {# change not yet on the server} other {# changes not yet on the server}}',
  'account.signOut': 'Sign out',
  'account.signOut.pending':
    '{n, plural, one {# change is} other {# changes are}} not on the server yet. Signed out now, they stay in this browser and are sent when you sign in here again.',
  'account.signOut.anyway': 'Sign out anyway',
  'account.signOut.failed': 'Could not sign out: {reason}',
  'team.sessionEnded':
    'You are signed out: the session ended, or you signed out on another device. What you change here is kept in this browser and sent when you sign in again.',
  'team.signInAgain': 'Sign in again',
  'team.localHistory.offer':
    'This browser kept {n, plural, one {# conversation} other {# conversations}} from before you signed in. Add {n, plural, one {it} other {them}} to your account?',
  'team.localHistory.add': 'Add to my account',
  'team.localHistory.decline': 'No, thanks',
  'team.localHistory.adding':
    'Adding {n, plural, one {# conversation} other {# conversations}} to your account…',
  'team.localHistory.added':
    'Added {n, plural, one {# conversation} other {# conversations}} to your account.',
  'team.refused': 'The server would not keep “{title}”: {reason} It stays in this browser.',
  'storage.saveError':
    'Changes could not be saved in this browser: {error} It is retried automatically; until it works, a reload would lose the latest messages.',
  'unreadable.region': 'Saved data that could not be read',
  'unreadable.conversations': '{n, plural, one {# saved conversation} other {# saved conversations}}',
  'unreadable.recordings': '{n, plural, one {# recording} other {# recordings}}',
  'unreadable.requests': '{n, plural, one {# sent request} other {# sent requests}}',
  'unreadable.settings': '{n, plural, one {# settings record} other {# settings records}}',
  'unreadable.summary':
    '<strong>{count} could not be read.</strong> {n, plural, one {It is kept as it is in this browser’s storage, never overwritten; everything else loaded. Download it to keep a copy or to send to support.} other {They are kept as they are in this browser’s storage, never overwritten; everything else loaded. Download them to keep a copy or to send to support.}}',
  'unreadable.resetSettings':
    'Some saved settings could not be read and are back to their defaults: {names}.',
  'unreadable.whatIsWrong': 'What is wrong',
  'unreadable.download': 'Download unreadable records',
  'storage.legend': 'Storage in this browser',
  'storage.usage':
    'Conversations, recordings and settings are kept in this browser only. {known, select, yes {In use: {used} of the {quota} it allows.} other {This browser does not say how much space they take.}}',
  'storage.persisted': 'Kept until you clear it: the browser will not remove it to free space.',
  'storage.mayRemove': 'The browser may remove it when space runs low.',
  'storage.askKeep': 'Ask the browser to keep it',
  'storage.unreadable': '{count} could not be read; kept unchanged.',

  // Settings
  'settings.title': 'Settings',
  'settings.language': 'Language',
  'settings.language.auto': 'Automatic (browser)',
  'settings.gateway': 'Gateway',
  'settings.baseUrl': "Gateway base URL (empty: this server's /v1 — the simulator or the dev proxy)",
  'settings.baseUrl.direct':
    "Called directly, the gateway answers only while this page is open: a reload or a closed tab ends the answer. Left empty, this app's own server (npm run serve) runs each answer to its end and the page picks it up again.",
  'settings.baseUrl.invalid':
    'Enter a full http:// or https:// address (like https://gateway.example.com/v1), or leave it empty. The gateway in use has not changed.',
  'settings.apiKey': 'API key',
  'settings.rememberKey': 'Remember the API key in this browser (otherwise it is kept for this tab only)',
  'settings.model': 'Model',
  'settings.systemPrompt': 'System prompt for new chats',
  'settings.maxOutputTokens': 'Max output tokens',
  'settings.temperature': 'Temperature',
  'settings.modelDefault': 'model default',
  'settings.offerTools': 'Offer the demo tool (get_weather) to the model',
  'settings.budgets': 'Reasoning: thinking budgets',
  'settings.budgets.help':
    'The Reasoning level in the toolbar goes to Chat Completions and Responses as an effort; Anthropic Messages thinks within a token budget instead, one per level. It must stay below Max output tokens when that is set (empty: the budget plus 4,096), and thinking takes no Temperature.',
  'settings.budget':
    '{effort, select, low {Low budget (tokens)} medium {Medium budget (tokens)} other {High budget (tokens)}}',
  'settings.budget.invalid': 'A whole number of at least {min, number}; {value, number} is in use.',
  'settings.stalls': 'Stalls and retries',
  'settings.stallSilent': 'Stall warning after (seconds without output)',
  'settings.stallDead': 'Dead connection after (seconds without any byte)',
  'settings.autoRetry': 'Retry automatically when a request fails before any output (429, 5xx)',

  // The sidebar
  'sidebar.label': 'Conversations',
  'sidebar.new': 'New chat',
  'sidebar.untitled': 'New chat',
  'sidebar.replayTitle': 'Replay: {file}',
  'sidebar.empty': 'No conversations yet.',
  'sidebar.more': 'Show {n, plural, one {# more conversation} other {# more conversations}}',
  'sidebar.meta':
    '{streaming, select, yes {streaming… · } other {}}{tokens, plural, one {# token} other {# tokens}} · {when}',
  'sidebar.titleField': 'Conversation title',
  'sidebar.export': 'Export',
  'sidebar.export.label': 'Export {title}',
  'sidebar.rename': 'Rename',
  'sidebar.rename.label': 'Rename {title}',
  'sidebar.delete': 'Delete',
  'sidebar.delete.label': 'Delete {title}',
  'export.as': 'Export as',
  'export.markdown': 'Markdown',
  'export.markdown.label': 'Export {title} as Markdown',
  'export.json': 'JSON',
  'export.json.label': 'Export {title} as JSON',
  'export.reading':
    '{n, plural, one {Reading # recording for the file…} other {Reading # recordings for the file…}}',
  'export.recordingsUnread':
    '{n, plural, one {# recording could not be read; the file has the rest.} other {# recordings could not be read; the file has the rest.}}',
  'export.unavailable': 'The export could not be loaded. Check the connection, then try again.',
  'search.label': 'Search conversations',
  'search.placeholder': 'Search ({shortcut} or /)',
  'search.results': 'Search results',
  'search.kind':
    '{kind, select, user {You:} answer {Answer:} reasoning {Reasoning:} refusal {Refusal:} tool_call {Tool call:} other {Tool result:}}',
  'search.unavailable': 'Search could not be loaded. Check the connection, then type again.',
  'search.searching': 'Searching…',
  'search.readingSome': 'Older conversations are still being read: the results will include them.',
  'search.reading':
    '{n, plural, one {# older conversation is} other {# older conversations are}} still being read: the results will include {n, plural, one {it} other {them}}.',
  'search.withReading': '{summary} {reading}',
  'search.none': 'No conversation matches “{query}”.',
  'search.found':
    '{total, plural, one {# conversation matches} other {# conversations match}}{more, select, yes {, the first {shown, number} shown} other {}}.',

  // Parts of an answer
  'usage.line':
    '{input, number} in · {output, number} out · {total, number} total{reasoning, plural, =0 {} other { · # reasoning}}{cached, plural, =0 {} other { · # cached}}{written, plural, =0 {} other { · # cache writes}}',
  'usage.title':
    'Token usage: {input, number} input, {output, number} output, {total, number} total{reasoning, plural, =0 {} other {, # reasoning}}{cached, plural, =0 {} other {, # cached}}{written, plural, =0 {} other {, # cache writes}}',
  'usage.unknown': 'usage unknown',
  'usage.unknown.title': 'Token usage was not reported',
  'reasoning.thinking': 'Thinking…',
  'reasoning.section': 'Reasoning',
  'reasoning.note.leftOut':
    '{protocol} starts without the reasoning state of the earlier {earlier} answers: thinking signatures and encrypted reasoning only work with the protocol that made them. Their reasoning is still shown above.',
  'reasoning.note.paused':
    'Sent without thinking: this answer continues tool calls made without it, and Anthropic Messages thinks through a whole turn or not at all. The next message thinks again.',
  'tool.region': 'Tool call {name}',
  'tool.callId': 'Call id',
  'tool.receiving': 'receiving…',
  'tool.invalidJson': 'Arguments are not valid JSON (the answer may have been cut off)',
  'tool.resultFor': 'Result for {name}',
  'tool.send': 'Send result',
  'tool.resultSent': 'Result sent',
  // The Tools dialog (from Parameters) and structured answers
  'tools.open': 'Tools…',
  'tools.title': 'Tools',
  'tools.note':
    'Offered to the model with every request of this chat, in the shape {api} takes. A change applies to this chat at once.',
  'tools.chat': 'This chat’s tools',
  'tools.none': 'No tools: the model can only answer in text.',
  'tools.answeredBy':
    '{template, select, yes {Its calls are answered by its result template.} other {You answer its calls.}}',
  'tools.keep': 'Save {name} to the library',
  'tools.remove': 'Remove {name}',
  'tools.choice': 'Tool choice',
  'tools.choice.option':
    '{kind, select, auto {Auto: the model decides} required {Required: it must call a tool} none {None: no tool calls} other {Only {name}}}',
  'tools.add': 'Add tool',
  'tools.name': 'Name',
  'tools.description': 'Description',
  'tools.parameters': 'Parameters (JSON Schema)',
  'tools.template': 'Result template (optional)',
  'tools.template.hint':
    'When the model calls this tool, this goes back as the result at once, each {example} replaced by that argument. Empty: you answer each call.',
  'tools.error.name':
    '{problem, select, missing {A tool needs a name.} pattern {Only letters, digits, _ and -, at most 64 of them.} other {This chat has a tool of that name already.}}',
  'tools.error.json': 'This is not valid JSON.',
  'tools.error.jsonAt': 'This is not valid JSON: line {line, number}, column {column, number}.',
  'tools.error.notObject': 'A schema here is a JSON object, not a list or a single value.',
  'tools.error.schema':
    'This is not a valid JSON Schema (draft 2020-12) at {path}: it breaks the meta-schema’s “{keyword}” rule there.',
  'tools.error.refused': 'Nothing was saved: correct the fields marked.',
  'tools.library': 'Saved tools',
  'tools.library.empty': 'None yet. A tool saved to the library can be used in any chat.',
  'tools.use': 'Use {name}',
  'tools.delete': 'Delete {name} from the library',
  'tools.output': 'Structured output',
  'tools.output.schema': 'Answer schema (JSON Schema)',
  'tools.output.state':
    '{set, select, yes {Answers must match this schema ({api} is asked for it); each is checked when it ends.} other {Not set: answers are free text.}}',
  'tools.output.use': 'Use schema',
  'tools.output.stop': 'Stop using the schema',
  'tools.done': 'Done',
  'tools.auto.limit':
    'Not answered automatically: {max, number} answers in a row were answered by result templates. Answer these calls yourself.',
  'structured.region': 'Structured answer',
  'structured.state':
    '{state, select, notJson {The answer is not JSON, so it cannot match its schema.} checking {Checking the answer against its schema…} breaks {{count, plural, one {The answer breaks its schema in # place.} other {The answer breaks its schema in # places.}}} other {The answer matches its schema.}}',
  'structured.violations': 'Where the answer breaks its schema',
  'structured.violation': '{path}: breaks “{keyword}”',
  'structured.mark': 'breaks “{keyword}”',
  'structured.tree': 'The answer as a tree',
  'structured.root': 'answer',
  'structured.kind':
    '{array, select, yes {{count, plural, one {list of # item} other {list of # items}}} other {{count, plural, one {object with # field} other {object with # fields}}}}',

  // The conversation, the message box and attachments
  'answer.label': 'Answer from {model} via {protocol}',
  'answer.status':
    '{status, select, streaming {streaming} stopped {stopped} stopped_incomplete {stopped · incomplete} incomplete {incomplete} failed {failed} other {complete}}',
  'answer.versions': 'Versions of this answer',
  'answer.copy': 'Copy answer',
  'answer.regenerate': 'Regenerate',
  'answer.inspect': 'Inspect',
  'answer.attempts': 'Attempt {count, number} of {count, number}',
  'answer.attempt':
    'attempt {n, number} of {count, number}: {status} after {measure, select, tokens {{amount, plural, one {# token} other {# tokens}}} other {{amount, plural, one {# character} other {# characters}} (usage not reported)}}',
  'answer.refusal': 'The model refused: {refusal}',
  'answer.waiting': 'Waiting for the answer',
  'answer.billed': 'Billed over {attempts, number} attempts: {input, number} in · {output, number} out',
  'answer.broken.label': 'Answer that could not be displayed',
  'answer.broken': 'This answer could not be displayed.',
  // View code: an attempt's request as code to copy
  'code.view': 'View code',
  'code.viewAttempt': 'View code of attempt {n, number}',
  'code.title': 'Code for this request',
  'code.subtitle': '{protocol}: POST {url}',
  'code.languages': 'Language',
  'code.tab.curl': 'cURL',
  'code.tab.python': 'Python',
  'code.tab.typescript': 'TypeScript',
  'code.tab.http': 'HTTP',
  'code.copy': 'Copy',
  'code.help.curl':
    'For bash or zsh. Set {variable} in your shell first: the key is never written in the code.',
  'code.help.python':
    'Needs the official {package} package (pip install {package}). The key is read from {variable}.',
  'code.help.typescript':
    'Needs the official {package} package (npm install {package}); runs as an ES module, for example with npx tsx. The key is read from {variable}.',
  'code.help.http': 'The request as it goes over the wire; the key goes where {variable} stands.',
  'code.sameOrigin':
    'This page calls the gateway through its own server. That server accepts calls from a script only if it runs the built-in simulator or was started with HOPBASE_PROXY_ALLOW_NO_ORIGIN=1; otherwise use the gateway’s own address.',
  'code.preparing': 'Putting the attached files into the request…',
  'code.attachmentMissing':
    'A file attached to this request is no longer stored in this browser, so its code cannot be shown.',
  'code.shortened': 'This code is {size} long, so only its beginning is shown here. Copy copies all of it.',
  'message.versions': 'Versions of your message',
  'message.edit': 'Edit',
  'message.editBox': 'Edit message',
  'version.previous': 'Previous version',
  'version.next': 'Next version',
  'version.position': 'Version {position, number} of {count, number}',
  'empty.intro':
    'Streams from Chat Completions, Responses and Anthropic Messages, with every token counted and every stall explained. Pick a protocol and a model above — the <code>sim-*</code> models are the built-in simulator, with faults on demand.',
  'empty.example.table': 'Explain server-sent events with a table and a code sample',
  'empty.example.tool': "What's the weather in Paris? Use the tool.",
  'empty.example.haiku': 'Write a short haiku about streaming',
  'conversation.jumpLatest': 'Jump to latest',
  'composer.label': 'Message',
  'composer.placeholder': 'Message HopBase… (Enter to send, Shift+Enter for a new line)',
  'composer.send': 'Send',
  'composer.attach': 'Attach',
  'composer.attach.title': 'Attach images or text files (or paste them, or drop them here)',
  'composer.picker': 'Files to attach',
  'composer.dropHint': 'Drop files to attach them',
  'composer.pending': 'Attachments to send',
  'composer.remove': 'Remove {name}',
  'attachments.label': 'Attachments',
  'attachments.notStored': 'not stored here',
  'attach.empty': '{name} is empty.',
  'attach.not_utf8': '{name} is not UTF-8 text: save it as UTF-8, then attach it again.',
  'attach.unsupported':
    '{name} cannot be attached: only images (PNG, JPEG, WebP, GIF) and text or code files (UTF-8) can.',
  'attach.image_kind':
    '{name} is an image of a kind the models do not take{extension, select, none {} other { ({extension})}}: use PNG, JPEG, WebP or GIF.',
  'attach.image_too_large': '{name} is {size}; an image can be at most {limit}.',
  'attach.text_too_large': '{name} is {size}; a text file can be at most {limit}.',
  'attach.message_too_large':
    '{name} was not attached: with it this message would carry {size} of files, and the most is {limit}.',
  'attach.too_many': '{name} was not attached: a message can carry at most {limit, number} files.',
  'attach.unreadable': '{name} could not be read: {error}',
  'attach.not_stored': '{name} was not attached: this browser would not store it ({error}).',

  // The inspector, code blocks, the system prompt dialog, backups and exports
  'action.cancel': 'Cancel',
  'inspector.label': 'Inspector',
  'inspector.close': 'Close inspector',
  'inspector.empty': 'Choose “Inspect” on an answer to see what came down the wire.',
  'inspector.noAttempt': 'No attempt recorded yet.',
  'inspector.attempts': 'Attempts',
  'inspector.attempt':
    'Attempt {n, number} · {status, select, streaming {streaming} complete {complete} error {error} interrupted {interrupted} aborted {aborted} other {{status}}}',
  'inspector.load.loading': 'Loading recording…',
  'inspector.load.missing':
    'This recording is not stored in this browser: only the answer and its usage are.',
  'inspector.load.unreadable':
    'This recording could not be read. It is left as it is in this browser’s storage and can be downloaded from the notice about records that could not be read.',
  'inspector.load.failed': 'This recording could not be read from this browser’s storage.',
  'inspector.tryAgain': 'Try again',
  'inspector.capped':
    'Recording capped at {items, number} events, {itemChars} of event data and {rawBytes} of raw stream: the events, the timeline and the exports stop there (the file names say “capped”); bytes received counts everything.',
  'inspector.partial':
    'Partial: still streaming. Export and JSON trace write what has arrived so far, and the file names say “partial”.',
  'inspector.export': 'Export',
  'inspector.jsonTrace': 'JSON trace',
  'inspector.body.loading': 'Loading the body of this request…',
  'inspector.body.failed': 'The body of this request could not be read from this browser’s storage.',
  'inspector.body.missing': 'The body of this request is no longer stored: it cannot be shown or sent again.',
  'inspector.body.unreadable':
    'The stored body of this request is damaged: it is kept as it is (listed with the records that could not be read), and cannot be shown or sent again.',
  'inspector.request': 'Request: POST {path}',
  'inspector.figures': 'Figures',
  'inspector.figure.timeToHeaders': 'Time to headers',
  'inspector.figure.timeToFirstToken': 'Time to first token',
  'inspector.figure.totalDuration': 'Total duration',
  'inspector.figure.outputRate': 'Output rate',
  'inspector.figure.longestSilence': 'Longest silence',
  'inspector.figure.keepalives': 'Keepalives',
  'inspector.figure.events': 'Events',
  'inspector.figure.bytes': 'Bytes received',
  'inspector.figure.rate': '{rate} tok/s{counted, select, yes { (counted deltas)} other {}}',
  'inspector.figure.silenceAt': '{silence} at +{at}',
  'inspector.ms': '{ms} ms',
  'inspector.seconds': '{seconds} s',
  'inspector.timeline': 'Timeline of {items} items over {span} ms',
  'inspector.legend.events': 'events',
  'inspector.legend.keepalives': 'keepalives',
  'inspector.legend.silence': 'silence > 1 s',
  'inspector.span': '0 – {span} ms',
  'inspector.events': 'Events',
  'inspector.events.search': 'Search events',
  'inspector.events.placeholder': 'event name or data',
  'inspector.events.count': '{shown, number} of {total, number} items',
  'inspector.events.at': '+{ms} ms',
  'import.label': 'Import a recording',
  'import.file': 'Import .sse',
  'import.hint': 'or drop a file here: it replays through the same reader as a new answer.',
  'import.speed': 'Replay speed',
  'import.speed.recorded': 'Recorded speed',
  'import.speed.instant': 'Instantly',
  'import.readError': 'Could not read {name}: {error}',
  'import.replayError': 'Could not replay {name}: {error}',
  'markdown.copyCode': 'Copy code',
  'markdown.plainText': 'text',
  'markdown.image': 'Image: {alt}',
  'markdown.image.untitled': 'Image: untitled',
  'markdown.task': 'Task',
  'systemPrompt.title': 'System prompt',
  'systemPrompt.field': 'System prompt for this chat',
  'systemPrompt.useDefault': 'Use the default',
  'systemPrompt.note':
    '{which, select, default {The default for new chats, as in Settings.} other {This chat’s own: the default for new chats (in Settings) is different.}} {started, select, yes {Sent with this chat’s next messages; earlier answers keep what they were sent with.} other {This chat starts with it.}}',
  // The parameters panel
  'params.title': 'Parameters',
  'params.button.title': 'Parameters for this chat',
  'params.name':
    '{name, select, temperature {Temperature} topP {Top P} maxOutputTokens {Max output tokens} seed {Seed} presencePenalty {Presence penalty} other {Frequency penalty}}',
  'params.note':
    'Sent with this chat’s requests on {api}, each in its own field. An empty field sends nothing: the model’s own default applies.',
  'params.range':
    '{whole, select, yes {{max, select, none {A whole number of at least {min, number}.} other {A whole number from {min, number} to {max, number}.}}} other {{max, select, none {A number of at least {min, number}.} other {A number from {min, number} to {max, number}.}}}}',
  'params.range.any': 'Any whole number.',
  'params.notApplicable': '{api} has no such parameter: not sent.',
  'params.error.number': '“{value}” is not a number.',
  'params.error.range': '{api} does not accept {value} here.',
  'params.error.stops': '{api} takes at most {max, number} stop sequences.',
  'params.error.thinking':
    '{problem, select, temperature_while_thinking {While thinking, Anthropic Messages takes no temperature but 1: clear it, or set Reasoning to Off.} top_p_while_thinking {While thinking, Anthropic Messages takes a top P of {min, number} to 1 only.} other {While thinking, Anthropic Messages needs this above the thinking budget ({budget, number}), or empty.}}',
  'params.error.summary': 'Nothing was saved: correct the fields marked.',
  'params.stop': 'Stop sequences',
  'params.stop.item': 'Stop sequence {n, number}',
  'params.stop.add': 'Add stop sequence',
  'params.stop.remove': 'Remove stop sequence {n, number}',
  'params.cache': 'Cache the conversation',
  'params.cache.help':
    'Each turn then reads what came before it from the provider’s cache, billed at the cache price (on Anthropic, writing the cache costs a little more than input).',
  'params.stop.help':
    'The answer ends where the model would write one. Type \\n for a new line, \\t for a tab.',
  'params.stop.max': '{api} takes up to {max, number}.',
  'params.reset': 'Reset',
  'params.reset.title':
    'Back to the defaults for new chats (temperature and max output tokens from Settings)',
  'params.settingsHelp':
    'Max output tokens and Temperature are what new chats start with; each chat keeps its own, changed in Parameters in the toolbar.',
  // Presets
  'presets.title': 'Presets',
  'presets.button.title': 'Presets: save this chat’s setup, start a new chat from one',
  'presets.empty': 'No presets yet: save this chat’s setup below.',
  'presets.summary':
    '{api} · {model} · Reasoning: {level, select, off {Off} low {Low} medium {Medium} other {High}}',
  'presets.use': 'Start a chat',
  'presets.use.label': 'Start a chat from {name}',
  'presets.delete': 'Delete',
  'presets.delete.label': 'Delete {name}',
  'presets.save.legend': 'Save this chat as a preset',
  'presets.save.help':
    'Its protocol, model, reasoning level, system prompt and parameters. A name already used replaces that preset.',
  'presets.name': 'Preset name',
  'presets.save': 'Save preset',
  'presets.saved': 'Saved “{name}”.',
  'presets.nameMissing': 'Give the preset a name.',
  'backup.legend': 'Back up and restore',
  'backup.about':
    'One file with every conversation, its answers and their recordings, the files sent with messages, and the settings (never the API key). Restore it here or in another browser: a conversation already here is joined with its copy, never doubled, and one deleted here comes back.',
  'backup.file': 'Backup file',
  'backup.backUp': 'Back up',
  'backup.restore': 'Restore',
  'backup.busy.backUp': 'Backing up…',
  'backup.busy.restore': 'Restoring {name}…',
  'backup.problems': 'Entries that could not be read',
  'backup.problem': '{entry}: {reason}',
  'backup.failed.backUp': 'The backup could not be made: {error}',
  'backup.failed.read': '{name} could not be read: {error}',
  'backup.failed.restore': 'The backup could not be restored: {error}. Nothing was changed.',
  'backup.done':
    'Backed up {conversations, plural, one {# conversation} other {# conversations}}, {recordings, plural, one {# recording} other {# recordings}}{attachments, plural, =0 {} one {, # attachment} other {, # attachments}} and the settings (not the API key) to {name}.{leftOut, plural, =0 {} one { # saved record could not be read and is not in it (still kept in this browser).} other { # saved records could not be read and are not in it (still kept in this browser).}}{missing, plural, =0 {} one { # attachment is no longer stored in this browser, so not in it.} other { # attachments are no longer stored in this browser, so not in it.}}',
  'backup.refusal.not_json': 'This file is not a HopBase Chat backup: it is not JSON. Nothing was changed.',
  'backup.refusal.not_backup': 'This file is not a HopBase Chat backup. Nothing was changed.',
  'backup.refusal.conversation_file':
    'This file is one conversation exported as JSON, not a backup. Nothing was changed.',
  'backup.refusal.trace_file':
    'This file is a recording exported from the inspector (import it there), not a backup. Nothing was changed.',
  'backup.refusal.newer_version':
    'This backup was made by a newer version of HopBase Chat (backup version {version}{withApp, select, yes {, app {app}} other {}}); this version reads version {reads}. Update the app, then restore it. Nothing was changed.',
  'backup.refusal.no_version': 'This backup is damaged: its version is missing. Nothing was changed.',
  'backup.refusal.no_conversations':
    'This backup is damaged: it has no list of conversations. Nothing was changed.',
  'backup.entry.conversation': 'conversation {number}{titled, select, yes { ({title})} other {}}',
  'backup.entry.recording':
    'conversation {number}{titled, select, yes { ({title})} other {}}, recording of attempt {attemptId}',
  'backup.entry.attachment': 'attachment {number}{named, select, yes { ({name})} other {}}',
  'backup.entry.attachments': 'attachments',
  'backup.entry.settings': 'settings',
  'backup.entry.setting': 'setting {key}',
  'backup.restored':
    'Restored {conversations, plural, one {# conversation} other {# conversations}}, {recordings, plural, one {# recording} other {# recordings}}{attachments, plural, =0 {} one {, # attachment} other {, # attachments}}{problems, plural, =0 {} one {; # entry could not be read} other {; # entries could not be read}}.',
  'backup.restored.nothingChanged': '{headline} All of it was here already: nothing changed.',
  'backup.restored.added': '{n, number} new here',
  'backup.restored.revived': '{n, number} brought back after being deleted',
  'backup.restored.joined': '{n, number} joined with the copy here',
  'backup.restored.unchanged': '{n, number} here already',
  'backup.restored.separator': ', ',
  'backup.gateway.legend': 'The backup’s gateway',
  'backup.gateway.question':
    'This backup calls its gateway at {address}; this browser calls {current}. The gateway here is unchanged. Choose the backup’s only if you trust it: your API key will then be sent to {address}.',
  'backup.gateway.keep': 'Keep {current}',
  'backup.gateway.use': 'Use {address} and send my API key there',
  'backup.gateway.used': 'The gateway is now {address}.',
  'backup.gateway.kept': 'The gateway stays {current}.',
  'backup.gateway.ownServer': 'this app’s own server',
  'backup.restored.changes':
    '{headline}{withConversations, select, yes { Conversations: {conversations}.} other {}}{files, plural, =0 {} other { Attachments: # new here.}}{settings, select, applied { Settings applied (the API key stays as it is).} unchanged { Settings as in the backup already.} other {}}{reload, select, yes { Reload the page to see them.} other {}}',
  'markdownExport.replayTitle': 'Replay: {file}',
  'markdownExport.untitled': 'Untitled conversation',
  'markdownExport.exported':
    'Exported from HopBase Chat on {now} · started {started} · {messages} messages · {tokens, number} tokens billed (every attempt){others, plural, =0 {} other { · {others} messages of other versions left out}}',
  'markdownExport.systemPrompt': 'System prompt',
  'markdownExport.you': 'You',
  'markdownExport.empty': '(empty)',
  'markdownExport.attached': 'Attached: {files}',
  'markdownExport.textFile': 'text',
  'markdownExport.version': 'version {position} of {count}',
  'markdownExport.answer': 'Answer',
  'markdownExport.replayedFrom': 'replayed from {file}',
  'markdownExport.noAttempt': 'No attempt was made.',
  'markdownExport.failedBeforeOutput': '**Failed** before any output: {title} ({details})',
  'markdownExport.stillStreaming': '**Incomplete**: the answer was still streaming when this was exported.',
  'markdownExport.unfinished':
    '{status, select, error {**Failed**, failed} interrupted {**Incomplete**, interrupted} other {**Incomplete**, stopped}}: {title}{withDetails, select, yes { ({details})} other {}}. What arrived before is kept below.',
  'markdownExport.notFinished': 'the answer did not finish',
  'markdownExport.cutShort': '**Incomplete**: {title}.',
  'markdownExport.reasoning': 'Reasoning',
  'markdownExport.refusal': '**Refusal**: {text}',
  'markdownExport.toolCall': 'Tool call: {name} ({id})',
  'markdownExport.argumentsIncomplete': 'Arguments (incomplete):',
  'markdownExport.noOutput': 'No output.',
  'markdownExport.usage':
    'Usage: {input, number} in · {output, number} out · {total, number} total{reasoning, plural, =0 {{cached, plural, =0 {} other { (# cached)}}} other { (# reasoning{cached, plural, =0 {} other {, {cached, number} cached}})}}',
  'markdownExport.shownAttempt': 'Shown: attempt {total} of {total}. Earlier attempts:',
  'markdownExport.earlierAttempt':
    'Attempt {n} of {total}, {time}: {status, select, error {failed} complete {complete} streaming {still streaming when exported} interrupted {interrupted} other {stopped}}{tokens, plural, =0 {} other { after {tokens, number} output tokens}}{withError, select, yes { ({error})} other {}}',
  'markdownExport.toolResult': 'Tool result',
  'markdownExport.resultOf': 'Result of {id}:',
  // Settings: usage (team mode)
  'usage.legend': 'Usage',
  'usage.help':
    'Tokens the server counted from the answers it relayed, per day (UTC). Interrupted attempts are billed too.',
  'usage.period': 'Period',
  'usage.lastDays': 'Last {days, number} days',
  'usage.whose': 'Whose usage',
  'usage.whose.own': 'Yours',
  'usage.whose.everyone': 'Everyone',
  'usage.loading': 'Loading usage…',
  'usage.empty': 'No usage in these days.',
  'usage.signedOut': 'You are signed out: sign in again to see usage.',
  'usage.failed': 'Usage could not be loaded: {reason}',
  'usage.malformed': 'Usage could not be loaded: the server’s answer was not what it should be.',
  'usage.caption': '{whose, select, everyone {Everyone’s usage} other {Your usage}}, {days} (UTC)',
  'usage.day': 'Day',
  'usage.input': 'Input tokens',
  'usage.output': 'Output tokens',
  'usage.cached': 'Cached tokens',
  'usage.attempts': 'Attempts',
  'usage.interrupted': 'Interrupted',
  'usage.total': 'Total',
  // The usage page (src/components/usage/)
  'usagePage.title': 'Usage and cost',
  'usagePage.help.local':
    'Every attempt this browser keeps, failed ones included, on the day it started. Tokens in include the cached ones, tokens out the reasoning ones.',
  'usagePage.help.team':
    'What the server counted from the answers it relayed, per day (UTC), priced with the price table: a gateway’s own figure and the long-prompt prices are not known there. Tokens in include the cached ones, tokens out the reasoning ones.',
  'usagePage.groupBy': 'Group',
  'usagePage.group': '{grouping, select, day {Per day} model {Per model} other {Per protocol}}',
  'usagePage.col.key': '{grouping, select, day {Day} model {Model} other {Protocol}}',
  'usagePage.col.input': 'Tokens in',
  'usagePage.col.cached': 'Cached',
  'usagePage.col.output': 'Tokens out',
  'usagePage.col.reasoning': 'Reasoning',
  'usagePage.col.cost': 'Cost',
  'usagePage.caption':
    '{grouping, select, day {Usage per day} model {Usage per model} other {Usage per protocol}}{whose, select, everyone {, everyone’s} other {}}',
  'usagePage.chart':
    'Bar chart of tokens in, tokens out and cost {grouping, select, day {per day} model {per model} other {per protocol}}; the table below holds the same figures.',
  'usagePage.chart.failed': 'The chart could not be loaded; the table below holds the figures.',
  'usagePage.csv.cost': 'Cost (USD)',
  'usagePage.csv.note': 'Note',
  'usagePage.csv.partial': 'at least: some attempts have no price or no usage',
  'usagePage.export': 'Export CSV',
  'usagePage.empty': 'No usage yet.',
  // What answers cost (src/components/cost/)
  'cost.figure':
    '{certainty, select, partial {at least {amount}} other {{amount}}}{gateway, select, all { (the gateway’s figure)} some { (partly the gateway’s figure)} other {}}{attempts, plural, =1 {} other { over # attempts}}',
  'cost.unknown': 'price unknown',
  'cost.label': 'Cost: {figure}',
  'cost.breakdown': 'What this answer cost',
  'cost.attempt': 'Attempt {n, number} of {count, number}: {status}',
  'cost.col.kind': 'Tokens',
  'cost.col.tokens': 'Count',
  'cost.col.price': 'Per million',
  'cost.col.amount': 'Cost',
  'cost.line.input': 'Input',
  'cost.line.cached': 'Cache reads',
  'cost.line.cacheWrite': 'Cache writes',
  'cost.line.cacheWrite1h': 'Cache writes (1 hour)',
  'cost.line.output': 'Output',
  'cost.line.reasoning': 'Reasoning',
  'cost.line.total': 'Total',
  'cost.note.longContext': 'The prompt passed 200,000 tokens: the long-context prices apply.',
  'cost.note.gateway':
    'The gateway reported {amount} itself, and that figure counts.{estimate, select, none {} other { The price table would say {estimate}.}}',
  'cost.note.unpriced': 'No price for {model}: add one in Settings, under Prices.',
  'cost.note.unmetered': 'Usage was never reported: what this attempt cost is unknown.',
  'cost.note.none': 'Refused before it began: nothing billed.',
  'cost.note.sum': 'The answer’s cost is the sum of its {count, number} attempts: each was billed.',
  'cost.conversation.title': 'What this conversation cost, every attempt included',
  'cost.inspector': 'Cost',
  'cost.settings.legend': 'Prices',
  'cost.settings.help':
    'Answers are priced with the server’s table ({count, plural, =0 {no models} one {# model} other {# models}}). Add or change prices here, in LiteLLM’s JSON format (dollars per token), for example: {example}',
  'cost.settings.label': 'Your prices',
  'cost.settings.read': '{count, plural, =0 {No models} one {# model} other {# models}} priced here.',
  'cost.settings.skipped': '{count, plural, one {# entry was} other {# entries were}} left out: {list}.',
  'cost.settings.skippedEntry':
    '{field, select, none {{model} is not an object} other {{model}: {field} is {value}}}',
  'cost.settings.notJson': 'This is not JSON ({reason}): the server’s prices are used.',
  'cost.settings.notTable':
    'This is not an object of models (LiteLLM’s format): the server’s prices are used.',
  'cost.context.label': 'Context window',
  'cost.context.fill': '{next, number} of {window, number} tokens ({percent, number, percent})',
  'cost.context.near':
    'The context window is nearly full: the next message may not fit ({next, number} of {window, number} tokens).',
  'cost.context.over':
    'This message would not fit in the model’s context window ({next, number} of {window, number} tokens): shorten it or start a new chat.',
} as const;

export type MessageKey = keyof typeof en;

/** A language's messages: every key English has, and no other. */
export type Catalog = Readonly<Record<MessageKey, string>>;
