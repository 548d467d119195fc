import { useEffect, useId, useRef, useState } from 'react';
import {
  adapters,
  type NumberParameter,
  numberParameters,
  parameterSupport,
  promptCacheField,
  type ReasoningOptions,
} from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useChoices } from '../../hooks/useChoices.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { defaultParameters, parametersOf } from '../../state/stores/conversationStore.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { ToolsDialog } from '../tools/ToolsDialog.tsx';
import {
  draftOf,
  type FieldError,
  type FieldName,
  type ParametersDraft,
  readDraft,
} from './parametersForm.ts';
import './parameters.css';

/** What a field's error says, in the person's language. */
function errorText({ t }: Pick<I18n, 't'>, error: FieldError, api: string): string {
  switch (error.kind) {
    case 'number':
      return t('params.error.number', { value: error.value });
    case 'range':
      return t('params.error.range', { api, value: error.value });
    case 'stops':
      return t('params.error.stops', { api, max: error.max });
    case 'thinking':
      return t('params.error.thinking', { ...error.problem.values, problem: error.problem.code });
  }
}

/**
 * The open chat's sampling parameters, for the protocol it uses: each field with that protocol's range
 * (checked and shown as typed; Save keeps nothing while one is wrong),
 * those it does not take shown as not sent. Reset brings back the defaults for new chats.
 */
export function ParametersDialog({
  conversation,
  onClose,
}: {
  conversation: Conversation | null;
  onClose(): void;
}) {
  const { stores } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const { protocol, reasoning: level } = useChoices();
  const temperature = useSettings((s) => s.settings.temperature);
  const maxOutputTokens = useSettings((s) => s.settings.maxOutputTokens);
  const budgets = useSettings((s) => s.settings.thinkingBudgets);
  const defaults = { temperature, maxOutputTokens };
  const api = adapters[protocol].label;
  const support = parameterSupport(protocol);
  const reasoning: ReasoningOptions | undefined =
    level === 'off' ? undefined : { effort: level, budgetTokens: budgets[level] };
  const [draft, setDraft] = useState<ParametersDraft>(() =>
    draftOf(parametersOf(conversation ?? undefined, defaults)),
  );
  const { parameters, errors } = readDraft(draft, protocol, support, reasoning);
  /**
   * Fields whose errors show: wrong from the start (kept for another protocol), changed, or all after Save
   * was pressed. As typed, not when a field is left: a message appearing on blur would move Save from
   * under the pointer that is clicking it.
   */
  const [shown, setShown] = useState<ReadonlySet<FieldName>>(
    () => new Set(Object.keys(errors) as FieldName[]),
  );
  const [refused, setRefused] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const titleId = useId();
  const ids = useId();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLElement>('input:not(:disabled)')?.focus(), []);
  // Back from the tools, focus is where the person left: on the button that opened them.
  const toolsButton = useRef<HTMLButtonElement>(null);
  const wasInTools = useRef(false);
  useEffect(() => {
    if (toolsOpen) wasInTools.current = true;
    else if (wasInTools.current) toolsButton.current?.focus();
  }, [toolsOpen]);

  const errorOf = (name: FieldName) => (shown.has(name) ? errors[name] : undefined);
  const show = (name: FieldName) => setShown((s) => new Set(s).add(name));
  const setNumber = (name: NumberParameter, text: string) => {
    setDraft((d) => ({ ...d, numbers: { ...d.numbers, [name]: text } }));
    show(name);
  };
  const setStops = (stop: string[]) => {
    setDraft((d) => ({ ...d, stop }));
    show('stop');
  };

  const save = () => {
    const wrong = Object.keys(errors) as FieldName[];
    if (wrong.length > 0) {
      setShown(new Set(wrong));
      setRefused(true);
      // The first field to correct, in the order shown.
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const conversations = stores.conversations.getState();
    if (conversation) conversations.setParameters(conversation.id, parameters);
    else conversations.setParameters(conversations.newConversation(), parameters);
    onClose();
  };

  const stopMax = support.stop?.max;
  const stopError = errorOf('stop');
  // In place of this dialog, its fields kept as typed for when it comes back.
  if (toolsOpen)
    return <ToolsDialog conversationId={conversation?.id ?? null} onClose={() => setToolsOpen(false)} />;
  return (
    <ModalDialog labelledBy={titleId} className="parameters-dialog" onClose={onClose}>
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <h2 id={titleId}>{t('params.title')}</h2>
        <p className="parameters-note">{t('params.note', { api })}</p>
        <div className="parameters-grid">
          {numberParameters.map((name) => {
            const range = support.numbers[name];
            const error = range ? errorOf(name) : undefined;
            const id = `${ids}-${name}`;
            return (
              <div className="parameters-field" key={name} data-applicable={range ? 'yes' : 'no'}>
                <label htmlFor={id}>
                  {t('params.name', { name })}
                  {range ? <code>{range.field}</code> : null}
                </label>
                <input
                  id={id}
                  type="text"
                  inputMode={range?.whole ? 'numeric' : 'decimal'}
                  autoComplete="off"
                  spellCheck={false}
                  value={draft.numbers[name]}
                  disabled={!range}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                  onChange={(e) => setNumber(name, e.target.value)}
                />
                <p id={`${id}-hint`} className="parameters-hint">
                  {!range
                    ? t('params.notApplicable', { api })
                    : range.min === Number.MIN_SAFE_INTEGER
                      ? // A seed: any whole number JavaScript holds exactly, figures too long to be worth reading.
                        t('params.range.any')
                      : t('params.range', {
                          min: range.min,
                          max: range.max ?? 'none',
                          whole: range.whole ? 'yes' : 'no',
                        })}
                </p>
                {error ? (
                  <p id={`${id}-error`} className="parameters-error">
                    {errorText(i18n, error, api)}
                  </p>
                ) : null}
              </div>
            );
          })}
        </div>
        <fieldset
          className="parameters-stops"
          disabled={!support.stop}
          aria-describedby={`${ids}-stop-help${stopMax === undefined ? '' : ` ${ids}-stop-max`}`}
        >
          <legend>
            {t('params.stop')}
            {support.stop ? <code>{support.stop.field}</code> : null}
          </legend>
          <p id={`${ids}-stop-help`} className="parameters-hint">
            {support.stop ? t('params.stop.help') : t('params.notApplicable', { api })}
          </p>
          {stopMax === undefined ? null : (
            <p id={`${ids}-stop-max`} className="parameters-hint">
              {t('params.stop.max', { api, max: stopMax })}
            </p>
          )}
          {draft.stop.map((text, i) => (
            // Stop sequences have no identity but their place in the list.
            // biome-ignore lint/suspicious/noArrayIndexKey: the index is the entry's identity
            <div className="parameters-stop" key={i}>
              <label className="parameters-stop-field">
                <span>{t('params.stop.item', { n: i + 1 })}</span>
                <input
                  type="text"
                  autoComplete="off"
                  spellCheck={false}
                  value={text}
                  aria-invalid={stopError ? true : undefined}
                  onChange={(e) => setStops(draft.stop.map((s, j) => (j === i ? e.target.value : s)))}
                />
              </label>
              <button
                type="button"
                className="btn"
                aria-label={t('params.stop.remove', { n: i + 1 })}
                title={t('params.stop.remove', { n: i + 1 })}
                onClick={() => setStops(draft.stop.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </div>
          ))}
          {stopError ? <p className="parameters-error">{errorText(i18n, stopError, api)}</p> : null}
          <div>
            <button
              type="button"
              className="btn"
              disabled={stopMax !== undefined && draft.stop.length >= stopMax}
              onClick={() => setStops([...draft.stop, ''])}
            >
              {t('params.stop.add')}
            </button>
          </div>
        </fieldset>
        <div className="parameters-cache">
          <label>
            <input
              type="checkbox"
              checked={draft.cache}
              aria-describedby={`${ids}-cache-help`}
              onChange={(e) => setDraft((d) => ({ ...d, cache: e.target.checked }))}
            />
            {t('params.cache')}
            <code>{promptCacheField[protocol]}</code>
          </label>
          <p id={`${ids}-cache-help`} className="parameters-hint">
            {t('params.cache.help')}
          </p>
        </div>
        {refused && Object.keys(errors).length > 0 ? (
          <p role="alert" className="parameters-error">
            {t('params.error.summary')}
          </p>
        ) : null}
        <div className="parameters-actions">
          <button
            type="button"
            className="btn"
            title={t('params.reset.title')}
            onClick={() => {
              setDraft(draftOf(defaultParameters(defaults)));
              setShown(new Set());
              setRefused(false);
            }}
          >
            {t('params.reset')}
          </button>
          <button type="button" className="btn" ref={toolsButton} onClick={() => setToolsOpen(true)}>
            {t('tools.open')}
          </button>
          <span className="parameters-spacer" />
          <button type="button" className="btn" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="btn btn-primary">
            {t('action.save')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
