import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { minThinkingBudget, type ReasoningEffort } from '../../core/index.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { automaticLanguage, languageNames, locales } from '../../i18n/locales.ts';
import { isCrossOrigin } from '../../session/gateway.ts';
import { isThinkingBudget, isUsableBaseUrl, type Settings } from '../../state/stores/settingsStore.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { BackupSection } from './BackupSection.tsx';
import { PricesSection } from './PricesSection.tsx';
import { StorageUse } from './StorageUse.tsx';
import { UsageSection } from './UsageSection.tsx';
import './settings.css';

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * A required number of seconds (at least 1). The text is kept while it is being edited, so the field
 * can be emptied and retyped; only valid values reach the store, and leaving the field shows the stored one.
 */
function SecondsField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange(n: number): void;
}) {
  const [text, setText] = useState(String(value));
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type="number"
        min={1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = numberOrNull(e.target.value);
          if (n !== null && n >= 1) onChange(n);
        }}
        onBlur={() => setText(String(value))}
      />
    </label>
  );
}

/**
 * One reasoning level's thinking budget (Anthropic Messages), edited like `SecondsField`: only a whole
 * number of at least 1,024 tokens reaches the store, and anything else says why.
 */
function BudgetField({
  effort,
  value,
  onChange,
}: {
  effort: ReasoningEffort;
  value: number;
  onChange(n: number): void;
}) {
  const [text, setText] = useState(String(value));
  const errorId = useId();
  const { t } = useI18n();
  const invalid = !isThinkingBudget(numberOrNull(text));
  return (
    <label className="field">
      <span>{t('settings.budget', { effort })}</span>
      <input
        type="number"
        min={minThinkingBudget}
        step={1}
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const n = numberOrNull(e.target.value);
          if (isThinkingBudget(n)) onChange(n);
        }}
        onBlur={() => setText(String(value))}
      />
      {invalid ? (
        <span id={errorId} className="field-error" role="alert">
          {t('settings.budget.invalid', { min: minThinkingBudget, value })}
        </span>
      ) : null}
    </label>
  );
}

/**
 * A connection field (base URL, API key) is edited as text and applied when the person leaves it or
 * presses Enter, and only when valid: every keystroke would otherwise refetch the model list from a
 * half-typed address, with the key attached.
 */
function useCommittedField(
  stored: string,
  apply: (value: string) => void,
  isValid: (value: string) => boolean,
) {
  const [text, setText] = useState(stored);
  const [invalid, setInvalid] = useState(false);
  // Changed elsewhere while shown (a restored backup's gateway, once confirmed; another tab): the field
  // follows unless the person is typing something else, so that closing never writes the old value back.
  const [shownStored, setShownStored] = useState(stored);
  if (stored !== shownStored) {
    setShownStored(stored);
    if (text.trim() === shownStored) {
      setText(stored);
      setInvalid(false);
    }
  }
  const latest = useRef({ text, stored, apply, isValid });
  latest.current = { text, stored, apply, isValid };
  const commit = () => {
    const { text, stored, apply, isValid } = latest.current;
    const ok = isValid(text);
    setInvalid(!ok);
    if (ok && text.trim() !== stored) apply(text.trim());
  };
  // Closing the dialog (Escape, Close, a click outside) applies what was typed, when valid.
  useEffect(
    () => () => {
      const { text, stored, apply, isValid } = latest.current;
      if (isValid(text) && text.trim() !== stored) apply(text.trim());
    },
    [],
  );
  return {
    value: text,
    invalid,
    onChange: (value: string) => {
      setText(value);
      if (invalid && isValid(value)) setInvalid(false);
    },
    commit,
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        commit();
      }
    },
  };
}

const anyKey = () => true;

/** Every setting applies at once (the gateway's address and key once typed); nothing here needs saving. */
export function SettingsDialog({ onClose }: { onClose(): void }) {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const { t } = useI18n();
  const titleId = useId();
  const baseUrlErrorId = useId();
  const baseUrlDirectId = useId();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (patch: Partial<Settings>) => update(patch);
  const baseUrl = useCommittedField(settings.baseUrl, (value) => set({ baseUrl: value }), isUsableBaseUrl);
  const apiKey = useCommittedField(settings.apiKey, (value) => set({ apiKey: value }), anyKey);

  return (
    // Nothing typed here is lost by a click outside: closing applies it.
    <ModalDialog labelledBy={titleId} className="settings" onClose={onClose} closeOnBackdrop>
      <header className="dialog-header">
        <h2 id={titleId}>{t('settings.title')}</h2>
        <button type="button" className="btn btn-small" onClick={onClose}>
          {t('action.close')}
        </button>
      </header>

      <label className="field settings-language">
        <span>{t('settings.language')}</span>
        <select
          className="select"
          value={settings.language}
          onChange={(e) => set({ language: e.target.value })}
        >
          <option value={automaticLanguage}>{t('settings.language.auto')}</option>
          {/* Each language in its own words, marked as such for screen readers. */}
          {locales.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {languageNames[locale]}
            </option>
          ))}
        </select>
      </label>

      <fieldset>
        <legend>{t('settings.gateway')}</legend>
        <label className="field">
          <span>{t('settings.baseUrl')}</span>
          <input
            ref={first}
            type="url"
            placeholder="https://gateway.example.com/v1"
            value={baseUrl.value}
            aria-invalid={baseUrl.invalid}
            aria-describedby={
              baseUrl.invalid ? baseUrlErrorId : isCrossOrigin(settings.baseUrl) ? baseUrlDirectId : undefined
            }
            onChange={(e) => baseUrl.onChange(e.target.value)}
            onBlur={baseUrl.commit}
            onKeyDown={baseUrl.onKeyDown}
          />
          {baseUrl.invalid ? (
            <span id={baseUrlErrorId} className="field-error" role="alert">
              {t('settings.baseUrl.invalid')}
            </span>
          ) : isCrossOrigin(settings.baseUrl) ? (
            <span id={baseUrlDirectId} className="field-help">
              {t('settings.baseUrl.direct')}
            </span>
          ) : null}
        </label>
        <label className="field">
          <span>{t('settings.apiKey')}</span>
          <input
            type="password"
            autoComplete="off"
            value={apiKey.value}
            onChange={(e) => apiKey.onChange(e.target.value)}
            onBlur={apiKey.commit}
            onKeyDown={apiKey.onKeyDown}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.rememberKey}
            onChange={(e) => set({ rememberKey: e.target.checked })}
          />
          {t('settings.rememberKey')}
        </label>
      </fieldset>

      <fieldset>
        <legend>{t('settings.model')}</legend>
        <label className="field">
          <span>{t('settings.systemPrompt')}</span>
          <textarea
            rows={3}
            value={settings.systemPrompt}
            onChange={(e) => set({ systemPrompt: e.target.value })}
          />
        </label>
        <div className="row">
          <label className="field">
            <span>{t('settings.maxOutputTokens')}</span>
            <input
              type="number"
              min={1}
              placeholder={t('settings.modelDefault')}
              value={settings.maxOutputTokens ?? ''}
              onChange={(e) => set({ maxOutputTokens: numberOrNull(e.target.value) })}
            />
          </label>
          <label className="field">
            <span>{t('settings.temperature')}</span>
            <input
              type="number"
              min={0}
              max={2}
              step={0.1}
              placeholder={t('settings.modelDefault')}
              value={settings.temperature ?? ''}
              onChange={(e) => set({ temperature: numberOrNull(e.target.value) })}
            />
          </label>
        </div>
        <p className="field-help">{t('params.settingsHelp')}</p>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.offerTools}
            onChange={(e) => set({ offerTools: e.target.checked })}
          />
          {t('settings.offerTools')}
        </label>
      </fieldset>

      <fieldset>
        <legend>{t('settings.budgets')}</legend>
        <p className="field-help">{t('settings.budgets.help')}</p>
        <div className="row row-3">
          {(['low', 'medium', 'high'] as const).map((effort) => (
            <BudgetField
              key={effort}
              effort={effort}
              value={settings.thinkingBudgets[effort]}
              onChange={(n) => set({ thinkingBudgets: { ...settings.thinkingBudgets, [effort]: n } })}
            />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>{t('settings.stalls')}</legend>
        <div className="row">
          <SecondsField
            label={t('settings.stallSilent')}
            value={settings.stallSilentSeconds}
            onChange={(stallSilentSeconds) => set({ stallSilentSeconds })}
          />
          <SecondsField
            label={t('settings.stallDead')}
            value={settings.stallDeadSeconds}
            onChange={(stallDeadSeconds) => set({ stallDeadSeconds })}
          />
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.autoRetry}
            onChange={(e) => set({ autoRetry: e.target.checked })}
          />
          {t('settings.autoRetry')}
        </label>
      </fieldset>

      <PricesSection />
      <UsageSection />
      <StorageUse />
      <BackupSection />
    </ModalDialog>
  );
}
