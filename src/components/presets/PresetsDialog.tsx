import { useId, useState } from 'react';
import { adapters } from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useChoices } from '../../hooks/useChoices.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { newId } from '../../state/domain/ids.ts';
import { withoutPreset, withPreset } from '../../state/domain/presets.ts';
import type { Conversation, Preset } from '../../state/domain/types.ts';
import { parametersOf, systemPromptOf, toolSetupOf } from '../../state/stores/conversationStore.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import '../header/parameters.css';

/**
 * The presets: each starts a new chat with its protocol, model, reasoning level, system prompt and
 * parameters, or is deleted; the open chat's setup is saved as one under a name.
 */
export function PresetsDialog({
  conversation,
  onClose,
  onStarted,
}: {
  conversation: Conversation | null;
  onClose(): void;
  /** A chat was started from a preset (the sidebar closes on a phone, as after "New chat"). */
  onStarted?(): void;
}) {
  const { stores } = useServices();
  const { t } = useI18n();
  const presets = useSettings((s) => s.settings.presets);
  const choices = useChoices();
  const [name, setName] = useState('');
  const [note, setNote] = useState<{ kind: 'saved' | 'missing'; name: string } | null>(null);
  const titleId = useId();
  const nameId = useId();
  const helpId = useId();
  const errorId = useId();
  const settings = () => stores.settings.getState();

  const save = () => {
    if (name.trim() === '') {
      setNote({ kind: 'missing', name });
      return;
    }
    const current = settings().settings;
    const preset: Preset = {
      id: newId('pre'),
      name: name.trim(),
      createdAt: Date.now(),
      choices,
      systemPrompt: systemPromptOf(conversation ?? undefined, current.systemPrompt),
      parameters: parametersOf(conversation ?? undefined, current),
      toolSetup: toolSetupOf(conversation ?? undefined, current),
    };
    settings().update({ presets: withPreset(current.presets, preset) });
    setNote({ kind: 'saved', name: preset.name });
    setName('');
  };

  /** A new chat as the preset says: its choices become the toolbar's, its prompt and parameters the chat's. */
  const start = (preset: Preset) => {
    settings().update(preset.choices);
    const conversations = stores.conversations.getState();
    const id = conversations.newConversation();
    conversations.setSystemPrompt(id, preset.systemPrompt);
    conversations.setParameters(id, preset.parameters);
    if (preset.toolSetup) conversations.setToolSetup(id, preset.toolSetup);
    onClose();
    onStarted?.();
  };

  const missing = note?.kind === 'missing';
  return (
    <ModalDialog labelledBy={titleId} className="parameters-dialog presets-dialog" onClose={onClose}>
      <div className="presets-body">
        <h2 id={titleId}>{t('presets.title')}</h2>
        {presets.length === 0 ? (
          <p className="parameters-note">{t('presets.empty')}</p>
        ) : (
          <ul className="presets-list">
            {presets.map((preset) => (
              <li key={preset.id}>
                <div className="presets-item">
                  <strong>{preset.name}</strong>
                  <span className="parameters-hint">
                    {t('presets.summary', {
                      api: adapters[preset.choices.protocol].label,
                      model: preset.choices.model,
                      level: preset.choices.reasoning,
                    })}
                  </span>
                </div>
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-label={t('presets.use.label', { name: preset.name })}
                  onClick={() => start(preset)}
                >
                  {t('presets.use')}
                </button>
                <button
                  type="button"
                  className="btn"
                  aria-label={t('presets.delete.label', { name: preset.name })}
                  onClick={() => settings().update({ presets: withoutPreset(presets, preset.id) })}
                >
                  {t('presets.delete')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="parameters-stops"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <h3>{t('presets.save.legend')}</h3>
          <p id={helpId} className="parameters-hint">
            {t('presets.save.help')}
          </p>
          <div className="parameters-stop">
            <div className="parameters-field parameters-stop-field">
              <label htmlFor={nameId}>{t('presets.name')}</label>
              <input
                id={nameId}
                type="text"
                autoComplete="off"
                value={name}
                aria-invalid={missing ? true : undefined}
                aria-describedby={missing ? `${helpId} ${errorId}` : helpId}
                onChange={(e) => {
                  setName(e.target.value);
                  if (missing) setNote(null);
                }}
              />
            </div>
            <button type="submit" className="btn">
              {t('presets.save')}
            </button>
          </div>
          {missing ? (
            <p id={errorId} className="parameters-error">
              {t('presets.nameMissing')}
            </p>
          ) : null}
          <p role="status" className="parameters-hint">
            {note?.kind === 'saved' ? t('presets.saved', { name: note.name }) : ''}
          </p>
        </form>
        <div className="parameters-actions">
          <span className="parameters-spacer" />
          <button type="button" className="btn" onClick={onClose}>
            {t('action.close')}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
