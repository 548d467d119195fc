import type { Catalog } from './en.ts';

/** Japanese: です/ます in sentences, plain nouns and verbs on buttons, full-width punctuation. */
export const ja: Catalog = {
  'app.closeConversations': '会話一覧を閉じる',
  'toolbar.conversations': '会話',
  'toolbar.usage':
    '<label>この会話：</label>入力 {input, number} · 出力 {output, number} · 合計 {total, number}',
  'toolbar.usage.title': 'この会話で課金されたトークン数（すべての試行を含む）',
  'toolbar.recordings': '記録',
  'toolbar.recordings.title': '記録したストリームを読み込んで再生',
  'toolbar.settings': '設定',
  'protocol.label': 'プロトコル',
  'model.label': 'モデル',
  'model.loading': '{model}（モデルを読み込み中…）',
  'model.withDescription': '{model} — {description}',
  'model.reload': 'モデルを再読み込み',
  'model.error.status': 'モデル一覧を読み込めませんでした（HTTP {status}）。',
  'model.error.baseUrl': '設定のゲートウェイのベース URL が、完全な http(s) アドレスではありません。',
  'model.error.policy':
    'このサーバーのセキュリティポリシーでは {origin} に接続できません。管理者に HOPBASE_CONNECT_SRC への追加を依頼するか、ベース URL を空にしてください。',
  'reasoning.label': '推論',
  'reasoning.level': '{level, select, off {オフ} low {低} medium {中} high {高} other {{level}}}',
  'reasoning.explain.off': '{protocol}：推論パラメーターなし（モデルの既定の動作）',
  'reasoning.explain.chat': '{protocol}：reasoning_effort "{level}"',
  'reasoning.explain.responses': '{protocol}：推論の強度 "{level}"（要約をストリーミング）',
  'reasoning.explain.messages': '{protocol}：{budget, number} トークンの予算で思考（設定）',

  // Compare: models side by side (src/components/compare/)
  'compare.button': '比較',
  'compare.button.title': 'モデルを並べて比較：1 つのメッセージをすべての列へ',
  'compare.region': '比較',
  'compare.column': '列 {n, number}',
  'compare.addColumn': '列を追加',
  'compare.removeColumn': '列を削除',
  'compare.hint':
    '次のメッセージはすべての列に同時に送られます。各回答はバージョンとして会話に残り、残した回答から会話が続きます。',
  'compare.prompt': 'プロンプト：{text}',
  'compare.noAnswer': 'この列にはまだ回答がありません。',
  'compare.keep': 'この回答を残す',
  'compare.kept': '会話の回答',

  'load.failed':
    'アプリのこの部分を読み込めませんでした。接続が切れているか、新しいバージョンが公開された可能性があります。ページを再読み込みしてください。入力中の内容と会話は保持されます。',
  'action.retry': '再試行',
  'action.stop': '停止',
  'action.close': '閉じる',
  'action.save': '保存',
  'action.dismiss': '閉じる',
  'action.reload': '再読み込み',
  'copy.copied': 'コピーしました',
  'copy.failed': 'コピーできません',

  'banner.lead': '<strong>{title}。</strong>{advice}',
  'autoRetry.announce':
    'リクエストは出力の前に失敗しました。まもなく自動で再試行します（{of} 回中 {attempt} 回目）。',
  'autoRetry.countdown': '{seconds}後に自動で再試行します（{of} 回中 {attempt} 回目）。',
  'autoRetry.cancel': '再試行を中止',
  'stall.silent.announce':
    'モデルの出力が止まっていますが、接続は生きています。待つ、再試行する、停止するのいずれかを選べます。',
  'stall.dead.announce':
    '接続が切れているようです。しばらく何も届いていません（keepalive も届いていません）。再試行するのが回答への近道です。',
  'stall.silent.keepalive':
    '<strong>モデルは {silent}間、何も出力していません。</strong>接続は生きています（最後の keepalive は {ago}前）。ゲートウェイは、黙ったままのモデルを 90～150 秒ほどで打ち切ります。',
  'stall.silent.bytes':
    '<strong>モデルは {silent}間、何も出力していません。</strong>接続は生きています（最後にデータを受信したのは {ago}前）。ゲートウェイは、黙ったままのモデルを 90～150 秒ほどで打ち切ります。',
  'relay.reconnecting.announce':
    'サーバーとの接続が切れました。回答はサーバー上で続いています。再接続しています。',
  'relay.reconnecting':
    '<strong>サーバーに再接続しています。</strong>回答はサーバー上で続いており、接続が戻りしだい、ここで続きから表示されます。',
  'stall.dead':
    '<strong>接続が切れているようです。</strong>{ago}間、何も届いていません（keepalive も届いていません。ゲートウェイは約 10 秒ごとに送信します）。再試行するのが回答への近道です。',
  'interruption.text':
    '<strong>{title}。</strong>{advice}{silence, select, none {} other {その前の {silence}間、モデルは何も出力していませんでした。}}{partial, select, yes {上の途中までの回答は残してあります。生成された分は課金されます。} other {}}',
  'interruption.details': '詳細',
  'interruption.requestId': 'リクエスト ID：{id}',
  'interruption.retryIn': '{seconds}後に再試行できます',

  'failure.http_400.title': 'ゲートウェイがリクエストを拒否しました',
  'failure.http_400.advice':
    'このモデルが受け付けないパラメーターか履歴があります。下の詳細を確認し、設定を変えてから送信し直してください。',
  'failure.http_401.title': 'API キーが受け付けられませんでした',
  'failure.http_401.advice': '設定を開いて API キーを確認してください。',
  'failure.http_403.title': 'アクセスが拒否されました',
  'failure.http_403.advice':
    'このキーでは、このモデルまたはリージョンを利用できない可能性があります。設定でキーとモデルを確認してください。',
  'failure.http_404.title': '見つかりません',
  'failure.http_404.advice':
    'このゲートウェイにそのモデルまたはパスはありません。別のモデルを選ぶか、設定でベース URL を確認してください。',
  'failure.http_408.title': 'リクエストがタイムアウトしました',
  'failure.http_408.advice': 'もう一度お試しください。',
  'failure.http_413.title': 'リクエストが大きすぎます',
  'failure.http_413.advice': 'プロンプトを短くするか、履歴の少ない新しい会話を始めてください。',
  'failure.http_422.title': 'リクエストを処理できませんでした',
  'failure.http_422.advice': '下の詳細を確認してください。',
  'failure.http_429.title': 'レート制限に達しました',
  'failure.http_429.advice': '現在リクエストが多すぎます。少し待ってから再試行してください。',
  'failure.http_500.title': 'ゲートウェイで内部エラーが発生しました',
  'failure.http_500.advice': '通常は一時的なものです。しばらくしてから再試行してください。',
  'failure.http_502.title': 'ゲートウェイエラー',
  'failure.http_502.advice':
    'モデルの手前にあるプロキシでエラーが発生しました。しばらくしてから再試行してください。',
  'failure.http_503.title': 'サービスを利用できません',
  'failure.http_503.advice': 'モデルが過負荷か、一時的に停止しています。しばらくしてから再試行してください。',
  'failure.http_504.title': 'ゲートウェイがタイムアウトしました',
  'failure.http_504.advice':
    'モデルが回答を始めるまでに時間がかかりすぎました。しばらくしてから再試行してください。',
  'failure.http_529.title': 'モデルが過負荷です',
  'failure.http_529.advice': 'Anthropic が高負荷の状態です。しばらくしてから再試行してください。',
  'failure.http_status.title': 'ゲートウェイが HTTP {status} を返しました',
  'failure.http_status.advice': '下の詳細を確認してください。',
  'failure.http_status_retryable.title': 'ゲートウェイが HTTP {status} を返しました',
  'failure.http_status_retryable.advice': 'しばらくしてから再試行してください。',
  'failure.rate_limit_mid_answer.title': '回答の途中でレート制限に達しました',
  'failure.rate_limit_mid_answer.advice':
    'レート制限により回答が途中で切れました。少し待ってから、リクエスト全体を再試行してください。',
  'failure.insufficient_quota.title': 'クォータを使い切りました',
  'failure.insufficient_quota.advice':
    'このアカウントには残りのクォータがありません。プランまたは支払いの問題が解決するまで、再試行しても成功しません。',
  'failure.server_error.title': '回答の途中でモデルが失敗しました',
  'failure.server_error.advice':
    'サーバーエラーでストリームが途切れました。途中の出力から再開することはできないため、再試行するとリクエスト全体をもう一度送信します。',
  'failure.invalid_prompt.title': 'プロンプトが拒否されました',
  'failure.invalid_prompt.advice':
    'モデルはこのままのプロンプトを受け付けません。メッセージを変更してから送信してください。変更せずに再試行しても再び失敗します。',
  'failure.api_error.title': 'ストリームが中断されました',
  'failure.api_error.advice':
    '回答の途中でゲートウェイとモデルの接続が切れました。途中の出力から再開することはできないため、再試行するとリクエスト全体をもう一度送信します。',
  'failure.overloaded_error.title': 'モデルが過負荷です',
  'failure.overloaded_error.advice':
    'モデルが過負荷のため、回答の途中で止まりました。しばらくしてから再試行してください。',
  'failure.timeout_error.title': 'モデルがタイムアウトしました',
  'failure.timeout_error.advice': 'リクエスト全体を再試行してください。',
  'failure.malformed_event.title': 'ストリームが壊れていました',
  'failure.malformed_event.advice':
    'サーバーから読み取れないイベントが届きました。有効な JSON ではない、既知のイベントに必須のフィールドがない、または別の回答が混ざっている、のいずれかです（詳細に記載）。ゲートウェイか、その手前のプロキシがそのまま送ったもので、接続自体には問題ありません。リクエストを再試行してください。',
  'failure.too_large.title': '回答が大きすぎるため保持できません',
  'failure.too_large.advice':
    'HopBase Chat が 1 つの回答に保持できる上限（テキスト・推論・ツール引数の合計 {answerChars, number} 文字、または 1 イベントで {eventChars, number} 文字）を超えたため、そこで読み取りを止めてリクエストを取り消しました。それまでに受信した内容はすべて残っています。再試行しても同じ上限に達するため、短い回答を求めてください。',
  'failure.app_error.title': 'この回答の処理中に HopBase Chat でエラーが発生しました',
  'failure.app_error.advice':
    'ネットワークやゲートウェイではなく、アプリの不具合です。再試行すると同じリクエストをもう一度送信します。再び発生する場合は、記録をエクスポート（検査 → エクスポート）して報告してください。',
  'failure.interrupted.title': '接続が途中で切れました',
  'failure.interrupted.advice':
    'ストリームが最後のイベントを受け取る前に終わりました。プロキシかネットワークで切断された可能性があります。再試行するとリクエスト全体をもう一度送信します。',
  'failure.page_reloaded.title': '再読み込みにより中断されました',
  'failure.page_reloaded.advice':
    'この回答の受信中にページが閉じられました。再試行すると同じリクエストをもう一度送信します。',
  'failure.aborted.title': '停止しました',
  'failure.aborted.advice': 'この回答は停止されました。再試行すると同じリクエストをもう一度送信します。',
  'failure.network_error.title': 'ゲートウェイに接続できませんでした',
  'failure.network_error.advice': '接続と、設定のベース URL を確認してください。',
  'failure.blocked_by_policy.title': 'このページからそのゲートウェイには接続できません',
  'failure.blocked_by_policy.advice':
    'サーバーのセキュリティポリシー（Content-Security-Policy の connect-src）に、ゲートウェイのオリジンが含まれていません。管理者に HOPBASE_CONNECT_SRC への追加を依頼するか、設定のベース URL を空にして、このサーバーの /v1 プロキシを使ってください。',
  'failure.unexpected_response.title': '予期しない応答',
  'failure.unexpected_response.advice':
    'ゲートウェイがイベントストリームで応答しませんでした。設定のベース URL を確認してください。',
  'failure.attachment_missing.title': '添付ファイルが保存されていません',
  'failure.attachment_missing.advice':
    'このブラウザーにファイルのデータが残っていません（送信時にストレージがいっぱいだったか、その後に消去されました）。そのため、リクエストを元のとおりに送信できません。ファイルを添付し直して、メッセージを送信してください。',
  'failure.not_sent.title': '送信していません：この設定は API に拒否されます',
  'failure.not_sent.advice':
    '{problem, select, budget_too_small {Anthropic Messages では、思考の予算を {min, number} トークン以上にする必要があります（現在は {budget, number}）。設定の「推論」で変更してください。} limit_not_above_budget {Anthropic Messages では、出力の上限を思考の予算より大きくする必要があります。最大出力トークン数は {limit, number}、{effort, select, low {低} medium {中} other {高}}の予算は {budget, number} です。パラメーターで最大出力トークン数を増やす（または空にする）か、設定で予算を減らすか、推論のレベルを下げてください。} temperature_while_thinking {Anthropic Messages では、思考中は温度を指定できません（現在は {temperature, number}）。パラメーターで温度を空にするか、推論をオフにしてください。} top_p_while_thinking {思考中の Anthropic Messages では Top P は {min, number} から 1 までしか指定できません（現在は {topP, number}）。パラメーターで Top P を上げるか空にするか、推論をオフにしてください。} forced_tool_while_thinking {Anthropic Messages では、ツール呼び出しを強制している間は思考できません（{forced, select, required {ツールの選択が「必須」です} tool {ツールの選択で 1 つのツールを指定しています} other {回答のスキーマが設定されており、Anthropic には強制のツールとして送られます}}）。ツールでツールの選択を「自動」にする{forced, select, structured {か回答のスキーマを空にする} other {}}か、推論をオフにしてください。} parameter_out_of_range {{api} では{name, select, temperature {温度} topP {Top P} maxOutputTokens {最大出力トークン数} seed {シード} presencePenalty {存在ペナルティ} other {頻度ペナルティ}}に {value, number} を指定できません。{whole, select, yes {{max, select, none {{min, number} 以上の整数} other {{min, number} から {max, number} までの整数}}} other {{max, select, none {{min, number} 以上の数値} other {{min, number} から {max, number} までの数値}}}}を指定してください。パラメーターで変更できます。} too_many_stop_sequences {{api} で指定できる停止シーケンスは {max, number} 個までです（現在 {count, number} 個）。パラメーターで減らしてください。} other {{problem}}}',
  'failure.stream_error.title': 'モデルがエラーを返しました',
  'failure.stream_error.advice':
    'ストリームがエラーで終了しました。再試行するとリクエスト全体をもう一度送信します。',

  'finish.context_window.title': '会話がモデルのコンテキストウィンドウの上限に達しました',
  'finish.context_window.advice':
    '{shown, select, yes {それまでの内容は表示されています。} other {}}続けるには、新しい会話か、履歴の少ない会話を始めてください。',
  'finish.output_limit.title':
    '回答が出力トークンの上限に達しました{withRaw, select, yes {（{raw}）} other {}}',
  'finish.output_limit.advice':
    '{cut, select, yes {最後のツール呼び出しも途中で切れたため、実行できません。} other {}}設定で「最大出力トークン数」を増やして質問を送り直すか、続きを書くようモデルに頼んでください。',
  'finish.content_filter.title':
    'プロバイダーのコンテンツフィルターにより回答が止められました{withRaw, select, yes {（{raw}）} other {}}',
  'finish.content_filter.advice':
    '{shown, select, yes {それまでの内容は表示されています。} other {}}リクエストを言い換えると回答が得られるかもしれません。',
  'finish.refusal.title': 'モデルが回答を断りました{withRaw, select, yes {（{raw}）} other {}}',
  'finish.refusal.advice': '{shown, select, yes {それまでの内容は表示されています。} other {}}',
  'finish.pause_turn.title': 'モデルが時間のかかる処理を一時停止しました（pause_turn）',
  'finish.pause_turn.advice':
    '{shown, select, yes {それまでの内容は表示されています。} other {}}このアプリはこの処理を再開しません。最初からやり直すには、質問を送り直してください。',

  'storage.loadError':
    '保存済みの会話を読み込めませんでした: {error} 保存済みのデータは何も変更されておらず、このタブが上書きすることもありません。新しい会話は別に保存されます。ページを再読み込みすると読み込めることがあります。',
  'address.missing': 'このアドレスの会話はありません。削除されたか、別の人のリンクの可能性があります。',
  'signIn.title': 'HopBase Chat にサインイン',
  'signIn.oidc':
    'この HopBase Chat はチームで共有されています。サインインすると、使っているどのデバイスでも自分の会話を見られます。',
  'signIn.button': 'サインイン',
  'signIn.header':
    'このサーバーの前にあるサインインサービスが、あなたが誰かを伝えていません。ページを再読み込みするか、サーバーの管理者に問い合わせてください。',
  'account.label': 'アカウント',
  'account.sync':
    '{state, select, connecting {サーバーに接続しています…} live {サーバーに保存済み} offline {オフライン: 変更はここに保存され、サーバーに戻ったときに送信されます} other {サインアウト済み: 変更はここに保存されています}}',
  'account.pending': '{n, plural, other {サーバーにまだない変更: # 件}}',
  'account.signOut': 'サインアウト',
  'account.signOut.pending':
    '{n, plural, other {# 件の変更}}がまだサーバーにありません。今サインアウトすると、変更はこのブラウザーに残り、ここで再びサインインしたときに送信されます。',
  'account.signOut.anyway': 'それでもサインアウト',
  'account.signOut.failed': 'サインアウトできませんでした: {reason}',
  'team.sessionEnded':
    'サインアウトしています。セッションが終了したか、別のデバイスでサインアウトしました。ここでの変更はこのブラウザーに保存され、再びサインインしたときに送信されます。',
  'team.signInAgain': 'もう一度サインイン',
  'team.localHistory.offer':
    'このブラウザーには、サインイン前の会話が {n, plural, other {# 件}}保存されています。アカウントに追加しますか？{n, plural, other {}}',
  'team.localHistory.add': 'アカウントに追加',
  'team.localHistory.decline': '追加しない',
  'team.localHistory.adding': '{n, plural, other {# 件の会話}}をアカウントに追加しています…',
  'team.localHistory.added': '{n, plural, other {# 件の会話}}をアカウントに追加しました。',
  'team.refused': 'サーバーは「{title}」を保存しませんでした: {reason} このブラウザーには残っています。',
  'storage.saveError':
    'このブラウザーに変更を保存できませんでした: {error} 自動で再試行しています。成功するまでは、再読み込みすると最新のメッセージが失われます。',
  'unreadable.region': '読み込めなかった保存データ',
  'unreadable.conversations': '{n, plural, other {保存済みの会話 # 件}}',
  'unreadable.recordings': '{n, plural, other {記録 # 件}}',
  'unreadable.requests': '{n, plural, other {送信したリクエスト # 件}}',
  'unreadable.settings': '{n, plural, other {設定レコード # 件}}',
  'unreadable.summary':
    '<strong>{count}を読み込めませんでした。</strong>{n, plural, other {このブラウザーのストレージにそのまま残してあり、上書きはしません。それ以外はすべて読み込みました。コピーを保管するか、サポートに送るためにダウンロードできます。}}',
  'unreadable.resetSettings': '保存済みの設定の一部を読み込めなかったため、既定値に戻しました：{names}。',
  'unreadable.whatIsWrong': '問題の内容',
  'unreadable.download': '読み込めなかったレコードをダウンロード',
  'storage.legend': 'このブラウザーのストレージ',
  'storage.usage':
    '会話、記録、設定はこのブラウザーにのみ保存されます。{known, select, yes {使用量：{quota} 中 {used}。} other {このブラウザーは使用量を報告しません。}}',
  'storage.persisted': '消去するまで保持されます。ブラウザーが空き容量のために削除することはありません。',
  'storage.mayRemove': '空き容量が少なくなると、ブラウザーが削除することがあります。',
  'storage.askKeep': '保持するようブラウザーに求める',
  'storage.unreadable': '{count}を読み込めませんでした。変更せずに残してあります。',

  'settings.title': '設定',
  'settings.language': '言語',
  'settings.language.auto': '自動（ブラウザーに合わせる）',
  'settings.gateway': 'ゲートウェイ',
  'settings.baseUrl':
    'ゲートウェイのベース URL（空欄：このサーバーの /v1、つまりシミュレーターか開発用プロキシ）',
  'settings.baseUrl.direct':
    'ゲートウェイを直接呼び出すと、回答はこのページが開いている間だけ続きます。再読み込みやタブを閉じると回答は終わります。空欄にすると、このアプリのサーバー（npm run serve）が各回答を最後まで実行し、ページはそれを再び受け取ります。',
  'settings.baseUrl.invalid':
    '完全な http:// または https:// のアドレス（例：https://gateway.example.com/v1）を入力するか、空欄にしてください。使用中のゲートウェイは変わっていません。',
  'settings.apiKey': 'API キー',
  'settings.rememberKey': 'このブラウザーに API キーを保存する（保存しない場合はこのタブでのみ保持）',
  'settings.model': 'モデル',
  'settings.systemPrompt': '新しいチャットのシステムプロンプト',
  'settings.maxOutputTokens': '最大出力トークン数',
  'settings.temperature': '温度',
  'settings.modelDefault': 'モデルの既定値',
  'settings.offerTools': 'デモ用ツール（get_weather）をモデルに提供する',
  'settings.budgets': '推論：思考の予算',
  'settings.budgets.help':
    'ツールバーの推論レベルは、Chat Completions と Responses には推論の強度として送られます。Anthropic Messages は代わりにレベルごとのトークン予算の範囲で思考します。最大出力トークン数を設定した場合、予算はそれより小さくする必要があります（空欄の場合は予算 + 4,096）。また、思考中は温度を指定できません。',
  'settings.budget':
    '{effort, select, low {低の予算（トークン）} medium {中の予算（トークン）} other {高の予算（トークン）}}',
  'settings.budget.invalid':
    '{min, number} 以上の整数を入力してください。現在は {value, number} を使用しています。',
  'settings.stalls': '停滞と再試行',
  'settings.stallSilent': '停滞の警告までの秒数（出力なし）',
  'settings.stallDead': '接続切れと判断するまでの秒数（受信なし）',
  'settings.autoRetry': '出力の前にリクエストが失敗したら自動で再試行する（429、5xx）',

  'sidebar.label': '会話',
  'sidebar.new': '新しいチャット',
  'sidebar.untitled': '新しいチャット',
  'sidebar.replayTitle': '再生: {file}',
  'sidebar.empty': '会話はまだありません。',
  'sidebar.more': 'さらに {n, plural, other {# 件の会話}}を表示',
  'sidebar.meta':
    '{streaming, select, yes {受信中… · } other {}}{tokens, plural, other {#\u00a0トークン}} · {when}',
  'sidebar.titleField': '会話のタイトル',
  'sidebar.export': 'エクスポート',
  'sidebar.export.label': '「{title}」をエクスポート',
  'sidebar.rename': '名前を変更',
  'sidebar.rename.label': '「{title}」の名前を変更',
  'sidebar.delete': '削除',
  'sidebar.delete.label': '「{title}」を削除',
  'export.as': '形式',
  'export.markdown': 'Markdown',
  'export.markdown.label': '「{title}」を Markdown でエクスポート',
  'export.json': 'JSON',
  'export.json.label': '「{title}」を JSON でエクスポート',
  'export.reading': '{n, plural, other {ファイル用に記録 # 件を読み込んでいます…}}',
  'export.recordingsUnread':
    '{n, plural, other {記録 # 件を読み取れませんでした。ファイルにはそれ以外が入っています。}}',
  'export.unavailable':
    'エクスポート機能を読み込めませんでした。接続を確認してから、もう一度お試しください。',
  'search.label': '会話を検索',
  'search.placeholder': '検索（{shortcut} または /）',
  'search.results': '検索結果',
  'search.kind':
    '{kind, select, user {自分：} answer {回答：} reasoning {推論：} refusal {拒否：} tool_call {ツール呼び出し：} other {ツールの結果：}}',
  'search.unavailable': '検索を読み込めませんでした。接続を確認してから、もう一度入力してください。',
  'search.searching': '検索しています…',
  'search.readingSome': '古い会話を読み込み中です。読み込みが終わると結果に含まれます。',
  'search.reading': '{n, plural, other {古い会話を#件読み込み中です。読み込みが終わると結果に含まれます。}}',
  // Sentences follow each other with no space between them in Japanese.
  'search.withReading': '{summary}{reading}',
  'search.none': '「{query}」に一致する会話はありません。',
  'search.found':
    '{total, plural, other {# 件の会話が一致}}{more, select, yes {（最初の {shown, number} 件を表示）} other {}}。',

  'usage.line':
    '入力 {input, number} · 出力 {output, number} · 合計 {total, number}{reasoning, plural, =0 {} other { · 推論 #}}{cached, plural, =0 {} other { · キャッシュ #}}{written, plural, =0 {} other { · キャッシュ書き込み #}}',
  'usage.title':
    'トークン使用量：入力 {input, number}、出力 {output, number}、合計 {total, number}{reasoning, plural, =0 {} other {、推論 #}}{cached, plural, =0 {} other {、キャッシュ #}}{written, plural, =0 {} other {、キャッシュ書き込み #}}',
  'usage.unknown': '使用量不明',
  'usage.unknown.title': 'トークン使用量は報告されませんでした',
  'reasoning.thinking': '思考中…',
  'reasoning.section': '推論',
  'reasoning.note.leftOut':
    '{protocol} では、それ以前の {earlier} の回答の推論状態を引き継ぎません。思考の署名や暗号化された推論は、それを生成したプロトコルでしか使えないためです。推論の内容は引き続き上に表示されます。',
  'reasoning.note.paused':
    '思考なしで送信しました。この回答は思考なしで始めたツール呼び出しの続きで、Anthropic Messages は 1 ターン全体で思考するか、まったく思考しないかのどちらかです。次のメッセージからは再び思考します。',
  'tool.region': 'ツール呼び出し {name}',
  'tool.callId': '呼び出し ID',
  'tool.receiving': '受信中…',
  'tool.invalidJson': '引数が有効な JSON ではありません（回答が途中で切れた可能性があります）',
  'tool.resultFor': '{name} の結果',
  'tool.send': '結果を送信',
  'tool.resultSent': '結果を送信済み',
  // The Tools dialog (from Parameters) and structured answers
  'tools.open': 'ツール…',
  'tools.title': 'ツール',
  'tools.note':
    'このチャットのすべてのリクエストで、{api} の形式でモデルに提供されます。変更はすぐにこのチャットに反映されます。',
  'tools.chat': 'このチャットのツール',
  'tools.none': 'ツールはありません。モデルはテキストでのみ回答できます。',
  'tools.answeredBy':
    '{template, select, yes {呼び出しには結果テンプレートで応答します。} other {呼び出しにはあなたが応答します。}}',
  'tools.keep': '{name} をライブラリに保存',
  'tools.remove': '{name} を削除',
  'tools.choice': 'ツールの選択',
  'tools.choice.option':
    '{kind, select, auto {自動：モデルが決める} required {必須：必ずツールを呼び出す} none {なし：ツールを呼び出さない} other {{name} のみ}}',
  'tools.add': 'ツールを追加',
  'tools.name': '名前',
  'tools.description': '説明',
  'tools.parameters': 'パラメーター（JSON Schema）',
  'tools.template': '結果テンプレート（任意）',
  'tools.template.hint':
    'モデルがこのツールを呼び出すと、これがすぐに結果として返されます。{example} はその引数に置き換わります。空欄：呼び出しごとにあなたが応答します。',
  'tools.error.name':
    '{problem, select, missing {ツールには名前が必要です。} pattern {英字、数字、_ と - のみ、64 文字までです。} other {このチャットには同じ名前のツールがすでにあります。}}',
  'tools.error.json': '有効な JSON ではありません。',
  'tools.error.jsonAt': '有効な JSON ではありません：{line, number} 行目、{column, number} 文字目。',
  'tools.error.notObject': 'ここでのスキーマは JSON オブジェクトです。リストや単独の値ではありません。',
  'tools.error.schema':
    '{path} が有効な JSON Schema（ドラフト 2020-12）ではありません：メタスキーマの「{keyword}」規則に反しています。',
  'tools.error.refused': '保存されませんでした。印の付いた項目を直してください。',
  'tools.library': '保存したツール',
  'tools.library.empty': 'まだありません。ライブラリに保存したツールはどのチャットでも使えます。',
  'tools.use': '{name} を使う',
  'tools.delete': '{name} をライブラリから削除',
  'tools.output': '構造化出力',
  'tools.output.schema': '回答のスキーマ（JSON Schema）',
  'tools.output.state':
    '{set, select, yes {回答はこのスキーマに従う必要があります（{api} に指定します）。各回答は終了時に検査されます。} other {未設定：回答は自由なテキストです。}}',
  'tools.output.use': 'スキーマを使う',
  'tools.output.stop': 'スキーマの使用をやめる',
  'tools.done': '完了',
  'tools.auto.limit':
    '自動では応答しませんでした：{max, number} 回続けて結果テンプレートで応答したためです。これらの呼び出しにはあなたが応答してください。',
  'structured.region': '構造化された回答',
  'structured.state':
    '{state, select, notJson {回答が JSON ではないため、スキーマに従えません。} checking {回答をスキーマと照合しています…} breaks {{count, plural, other {回答は # か所でスキーマに反しています。}}} other {回答はスキーマに従っています。}}',
  'structured.violations': '回答がスキーマに反している箇所',
  'structured.violation': '{path}：「{keyword}」に違反',
  'structured.mark': '「{keyword}」に違反',
  'structured.tree': 'ツリー表示の回答',
  'structured.root': '回答',
  'structured.kind':
    '{array, select, yes {{count, plural, other {# 項目のリスト}}} other {{count, plural, other {# フィールドのオブジェクト}}}}',

  // The conversation, the message box and attachments
  'answer.label': '{model} の回答（{protocol}）',
  'answer.status':
    '{status, select, streaming {ストリーミング中} stopped {停止} stopped_incomplete {停止・未完了} incomplete {未完了} failed {失敗} other {完了}}',
  'answer.versions': 'この回答のバージョン',
  'answer.copy': '回答をコピー',
  'answer.regenerate': '再生成',
  'answer.inspect': '検査',
  'answer.attempts': '{count, number} 回中 {count, number} 回目の試行',
  'answer.attempt':
    '{count, number} 回中 {n, number} 回目：{status}（{measure, select, tokens {{amount, plural, other {# トークン}}を出力} other {{amount, plural, other {# 文字}}を出力、使用量の報告なし}}）',
  'answer.refusal': 'モデルが回答を拒否しました：{refusal}',
  'answer.waiting': '回答を待っています',
  'answer.billed': '{attempts, number} 回の試行で課金：入力 {input, number} · 出力 {output, number}',
  'answer.broken.label': '表示できない回答',
  'answer.broken': 'この回答は表示できません。',
  // View code: an attempt's request as code to copy
  'code.view': 'コードを表示',
  'code.viewAttempt': '試行 {n, number} のコードを表示',
  'code.title': 'このリクエストのコード',
  'code.subtitle': '{protocol}: POST {url}',
  'code.languages': '言語',
  'code.tab.curl': 'cURL',
  'code.tab.python': 'Python',
  'code.tab.typescript': 'TypeScript',
  'code.tab.http': 'HTTP',
  'code.copy': 'コピー',
  'code.help.curl':
    'bash または zsh 用です。先にシェルで {variable} を設定してください。キーはコードに書き込まれません。',
  'code.help.python':
    '公式の {package} パッケージが必要です（pip install {package}）。キーは {variable} から読み込まれます。',
  'code.help.typescript':
    '公式の {package} パッケージが必要です（npm install {package}）。ES モジュールとして実行します（例: npx tsx）。キーは {variable} から読み込まれます。',
  'code.help.http': 'ネットワーク上を流れるままのリクエストです。キーは {variable} の位置に入ります。',
  'code.sameOrigin':
    'このページは自身のサーバー経由でゲートウェイを呼び出しています。そのサーバーがスクリプトからの呼び出しを受け付けるのは、内蔵シミュレーターを実行しているか HOPBASE_PROXY_ALLOW_NO_ORIGIN=1 で起動された場合だけです。それ以外はゲートウェイ自身のアドレスを使ってください。',
  'code.preparing': '添付ファイルをリクエストに入れています…',
  'code.attachmentMissing':
    'このリクエストの添付ファイルがこのブラウザーにもう保存されていないため、コードを表示できません。',
  'code.shortened':
    'このコードは {size} あるため、ここでは先頭だけを表示しています。「コピー」ですべてコピーされます。',
  'message.versions': 'あなたのメッセージのバージョン',
  'message.edit': '編集',
  'message.editBox': 'メッセージを編集',
  'version.previous': '前のバージョン',
  'version.next': '次のバージョン',
  'version.position': 'バージョン {position, number}（全 {count, number} 件）',
  'empty.intro':
    'Chat Completions、Responses、Anthropic Messages のストリームを表示し、すべてのトークンを数え、停滞の理由をすべて説明します。上でプロトコルとモデルを選んでください。<code>sim-*</code> モデルは組み込みのシミュレーターで、障害を自由に起こせます。',
  'empty.example.table': 'Server-Sent Events を表とコード例で説明して',
  'empty.example.tool': 'パリの天気は？ツールを使って調べて。',
  'empty.example.haiku': 'ストリーミングについて短い俳句を詠んで',
  'conversation.jumpLatest': '最新へ移動',
  'composer.label': 'メッセージ',
  'composer.placeholder': 'HopBase にメッセージ…（Enter で送信、Shift+Enter で改行）',
  'composer.send': '送信',
  'composer.attach': '添付',
  'composer.attach.title': '画像やテキストファイルを添付（貼り付けやドロップでも添付できます）',
  'composer.picker': '添付するファイル',
  'composer.dropHint': 'ドロップして添付',
  'composer.pending': '送信する添付ファイル',
  'composer.remove': '「{name}」を削除',
  'attachments.label': '添付ファイル',
  'attachments.notStored': '保存されていません',
  'attach.empty': '「{name}」は空です。',
  'attach.not_utf8':
    '「{name}」は UTF-8 のテキストではありません。UTF-8 で保存してから、もう一度添付してください。',
  'attach.unsupported':
    '「{name}」は添付できません。添付できるのは画像（PNG、JPEG、WebP、GIF）と、テキストファイルやコードファイル（UTF-8）だけです。',
  'attach.image_kind':
    '「{name}」はモデルが受け付けない形式の画像です{extension, select, none {} other {（{extension}）}}。PNG、JPEG、WebP、GIF のいずれかを使ってください。',
  'attach.image_too_large': '「{name}」は {size} あります。画像は {limit} までです。',
  'attach.text_too_large': '「{name}」は {size} あります。テキストファイルは {limit} までです。',
  'attach.message_too_large':
    '「{name}」は添付していません。添付するとこのメッセージのファイルが合計 {size} になり、上限の {limit} を超えます。',
  'attach.too_many':
    '「{name}」は添付していません。1 つのメッセージに添付できるファイルは {limit, number} 個までです。',
  'attach.unreadable': '「{name}」を読み込めませんでした：{error}',
  'attach.not_stored': '「{name}」は添付していません。このブラウザーに保存できませんでした（{error}）。',

  // インスペクター、コードブロック、システムプロンプト、バックアップとエクスポート
  'action.cancel': 'キャンセル',
  'inspector.label': 'インスペクター',
  'inspector.close': 'インスペクターを閉じる',
  'inspector.empty': '回答の「検査」を選ぶと、実際に受信した内容を確認できます。',
  'inspector.noAttempt': '記録された試行はまだありません。',
  'inspector.attempts': '試行',
  'inspector.attempt':
    '試行 {n, number} · {status, select, streaming {受信中} complete {完了} error {エラー} interrupted {中断} aborted {停止} other {{status}}}',
  'inspector.load.loading': '記録を読み込んでいます…',
  'inspector.load.missing':
    'この記録はこのブラウザーに保存されていません。保存されているのは回答と使用量だけです。',
  'inspector.load.unreadable':
    'この記録は読み取れませんでした。ブラウザーのストレージにそのまま残してあり、読み取れないレコードのお知らせからダウンロードできます。',
  'inspector.load.failed': 'この記録をブラウザーのストレージから読み取れませんでした。',
  'inspector.tryAgain': 'もう一度試す',
  'inspector.capped':
    '記録は上限に達しました（イベント {items, number} 件、イベントデータ {itemChars}、生のストリーム {rawBytes}）。イベント一覧、タイムライン、エクスポートはそこまでです（ファイル名に「capped」が付きます）。受信バイト数はすべてを数えます。',
  'inspector.partial':
    '途中です：まだ受信中です。「エクスポート」と「JSON トレース」はここまでに届いた分を書き出し、ファイル名に「partial」が付きます。',
  'inspector.export': 'エクスポート',
  'inspector.jsonTrace': 'JSON トレース',
  'inspector.body.loading': 'このリクエストの本文を読み込んでいます…',
  'inspector.body.failed': 'このリクエストの本文をブラウザーのストレージから読み取れませんでした。',
  'inspector.body.missing': 'このリクエストの本文はもう保存されていません。表示も再送信もできません。',
  'inspector.body.unreadable':
    'このリクエストの保存された本文は破損しています。そのまま保持されており（読み取れなかったレコードの一覧にあります）、表示も再送信もできません。',
  'inspector.request': 'リクエスト: POST {path}',
  'inspector.figures': '計測値',
  'inspector.figure.timeToHeaders': 'ヘッダーまでの時間',
  'inspector.figure.timeToFirstToken': '最初のトークンまでの時間',
  'inspector.figure.totalDuration': '合計時間',
  'inspector.figure.outputRate': '出力速度',
  'inspector.figure.longestSilence': '最長の無応答',
  'inspector.figure.keepalives': 'キープアライブ',
  'inspector.figure.events': 'イベント',
  'inspector.figure.bytes': '受信バイト数',
  'inspector.figure.rate': '{rate} tok/s{counted, select, yes {（差分の数から算出）} other {}}',
  'inspector.figure.silenceAt': '{silence}（+{at}〜）',
  'inspector.ms': '{ms} ms',
  'inspector.seconds': '{seconds} 秒',
  'inspector.timeline': 'タイムライン：{span} ms の間に {items} 件',
  'inspector.legend.events': 'イベント',
  'inspector.legend.keepalives': 'キープアライブ',
  'inspector.legend.silence': '1 秒を超える無応答',
  'inspector.span': '0 – {span} ms',
  'inspector.events': 'イベント',
  'inspector.events.search': 'イベントを検索',
  'inspector.events.placeholder': 'イベント名またはデータ',
  'inspector.events.count': '{total, number} 件中 {shown, number} 件',
  'inspector.events.at': '+{ms} ms',
  'import.label': '記録を読み込む',
  'import.file': '.sse を読み込む',
  'import.hint': 'またはここにファイルをドロップします。同じリーダーで新しい回答として再生されます。',
  'import.speed': '再生速度',
  'import.speed.recorded': '記録どおりの速度',
  'import.speed.instant': '即時',
  'import.readError': '{name} を読み取れませんでした: {error}',
  'import.replayError': '{name} を再生できませんでした: {error}',
  'markdown.copyCode': 'コードをコピー',
  'markdown.plainText': 'テキスト',
  'markdown.image': '画像: {alt}',
  'markdown.image.untitled': '画像: 無題',
  'markdown.task': 'タスク',
  'systemPrompt.title': 'システムプロンプト',
  'systemPrompt.field': 'このチャットのシステムプロンプト',
  'systemPrompt.useDefault': 'デフォルトに戻す',
  'systemPrompt.note':
    '{which, select, default {新しいチャットのデフォルトです（設定と同じ）。} other {このチャット専用です。新しいチャットのデフォルト（設定）とは異なります。}}{started, select, yes {このチャットの次のメッセージから送信されます。これまでの回答は、送信時のプロンプトのままです。} other {このチャットはこのプロンプトで始まります。}}',
  // The parameters panel
  'params.title': 'パラメーター',
  'params.button.title': 'このチャットのパラメーター',
  'params.name':
    '{name, select, temperature {温度} topP {Top P} maxOutputTokens {最大出力トークン数} seed {シード} presencePenalty {存在ペナルティ} other {頻度ペナルティ}}',
  'params.note':
    '{api} で、このチャットのリクエストにそれぞれ専用のフィールドで送信されます。空のフィールドは送信されず、モデルのデフォルトが使われます。',
  'params.range':
    '{whole, select, yes {{max, select, none {{min, number} 以上の整数。} other {{min, number} から {max, number} までの整数。}}} other {{max, select, none {{min, number} 以上の数値。} other {{min, number} から {max, number} までの数値。}}}}',
  'params.range.any': '任意の整数。',
  'params.notApplicable': '{api} にはこのパラメーターがないため、送信されません。',
  'params.error.number': '「{value}」は数値ではありません。',
  'params.error.range': '{api} ではここに {value} を指定できません。',
  'params.error.stops': '{api} で指定できる停止シーケンスは {max, number} 個までです。',
  'params.error.thinking':
    '{problem, select, temperature_while_thinking {思考中の Anthropic Messages では温度は 1 以外指定できません。空にするか、推論をオフにしてください。} top_p_while_thinking {思考中の Anthropic Messages では Top P は {min, number} から 1 までしか指定できません。} other {思考中の Anthropic Messages では、この値を思考の予算（{budget, number}）より大きくするか、空にする必要があります。}}',
  'params.error.summary': '保存していません。印の付いたフィールドを直してください。',
  'params.stop': '停止シーケンス',
  'params.stop.item': '停止シーケンス {n, number}',
  'params.stop.add': '停止シーケンスを追加',
  'params.stop.remove': '停止シーケンス {n, number} を削除',
  'params.cache': '会話をキャッシュする',
  'params.cache.help':
    '各ターンはそれまでの内容をプロバイダーのキャッシュから読み込み、キャッシュ料金で課金されます（Anthropic ではキャッシュへの書き込みは入力より少し高くなります）。',
  'params.stop.help': 'モデルがこれを書く位置で回答が終わります。改行は \\n、タブは \\t と入力します。',
  'params.stop.max': '{api} では {max, number} 個まで指定できます。',
  'params.reset': 'リセット',
  'params.reset.title': '新しいチャットのデフォルト（設定の温度と最大出力トークン数）に戻す',
  'params.settingsHelp':
    '最大出力トークン数と温度は新しいチャットの初期値です。チャットごとの値は、ツールバーの「パラメーター」で変更します。',
  // Presets
  'presets.title': 'プリセット',
  'presets.button.title': 'プリセット：このチャットの設定を保存し、プリセットから新しいチャットを始めます',
  'presets.empty': 'プリセットはまだありません。下でこのチャットの設定を保存できます。',
  'presets.summary': '{api} · {model} · 推論：{level, select, off {オフ} low {低} medium {中} other {高}}',
  'presets.use': 'チャットを開始',
  'presets.use.label': '{name} でチャットを開始',
  'presets.delete': '削除',
  'presets.delete.label': '{name} を削除',
  'presets.save.legend': 'このチャットをプリセットとして保存',
  'presets.save.help':
    'プロトコル、モデル、推論レベル、システムプロンプト、パラメーターを保存します。使用済みの名前にすると、そのプリセットを置き換えます。',
  'presets.name': 'プリセット名',
  'presets.save': 'プリセットを保存',
  'presets.saved': '「{name}」を保存しました。',
  'presets.nameMissing': 'プリセットに名前を付けてください。',
  'backup.legend': 'バックアップと復元',
  'backup.about':
    'すべての会話とその回答・記録、メッセージと一緒に送信したファイル、設定（API キーは含みません）を 1 つのファイルにまとめます。このブラウザーでも別のブラウザーでも復元できます。ここにある会話はそのコピーと統合され、重複しません。ここで削除した会話は元に戻ります。',
  'backup.file': 'バックアップファイル',
  'backup.backUp': 'バックアップ',
  'backup.restore': '復元',
  'backup.busy.backUp': 'バックアップしています…',
  'backup.busy.restore': '{name} を復元しています…',
  'backup.problems': '読み取れなかった項目',
  'backup.problem': '{entry}: {reason}',
  'backup.failed.backUp': 'バックアップを作成できませんでした: {error}',
  'backup.failed.read': '{name} を読み取れませんでした: {error}',
  'backup.failed.restore': 'バックアップを復元できませんでした: {error}。何も変更されていません。',
  'backup.done':
    '{conversations, plural, other {会話 # 件}}、{recordings, plural, other {記録 # 件}}{attachments, plural, =0 {} other {、添付ファイル # 件}}と設定（API キーを除く）を {name} にバックアップしました。{leftOut, plural, =0 {} other {保存済みのレコード # 件は読み取れなかったため含まれていません（このブラウザーには残っています）。}}{missing, plural, =0 {} other {添付ファイル # 件はこのブラウザーに保存されていないため含まれていません。}}',
  'backup.refusal.not_json':
    'このファイルは HopBase Chat のバックアップではありません（JSON ではありません）。何も変更されていません。',
  'backup.refusal.not_backup':
    'このファイルは HopBase Chat のバックアップではありません。何も変更されていません。',
  'backup.refusal.conversation_file':
    'このファイルは JSON でエクスポートした 1 件の会話で、バックアップではありません。何も変更されていません。',
  'backup.refusal.trace_file':
    'このファイルはインスペクターからエクスポートした記録です（インスペクターで読み込んでください）。バックアップではありません。何も変更されていません。',
  'backup.refusal.newer_version':
    'このバックアップは新しいバージョンの HopBase Chat で作成されています（バックアップのバージョン {version}{withApp, select, yes {、アプリ {app}} other {}}）。このバージョンが読み取れるのはバージョン {reads} までです。アプリを更新してから復元してください。何も変更されていません。',
  'backup.refusal.no_version':
    'このバックアップは破損しています（バージョンがありません）。何も変更されていません。',
  'backup.refusal.no_conversations':
    'このバックアップは破損しています（会話の一覧がありません）。何も変更されていません。',
  'backup.entry.conversation': '会話 {number}{titled, select, yes {（{title}）} other {}}',
  'backup.entry.recording':
    '会話 {number}{titled, select, yes {（{title}）} other {}}の試行 {attemptId} の記録',
  'backup.entry.attachment': '添付ファイル {number}{named, select, yes {（{name}）} other {}}',
  'backup.entry.attachments': '添付ファイル',
  'backup.entry.settings': '設定',
  'backup.entry.setting': '設定 {key}',
  'backup.restored':
    '{conversations, plural, other {会話 # 件}}、{recordings, plural, other {記録 # 件}}{attachments, plural, =0 {} other {、添付ファイル # 件}}を復元しました{problems, plural, =0 {} other {（# 件の項目は読み取れませんでした）}}。',
  'backup.restored.nothingChanged': '{headline}すべてすでにここにあるため、何も変更されていません。',
  'backup.restored.added': '新規 {n, number} 件',
  'backup.restored.revived': '削除済みから復活 {n, number} 件',
  'backup.restored.joined': 'ここのコピーと統合 {n, number} 件',
  'backup.restored.unchanged': '既存 {n, number} 件',
  'backup.restored.separator': '、',
  'backup.gateway.legend': 'バックアップのゲートウェイ',
  'backup.gateway.question':
    'このバックアップのゲートウェイは {address} ですが、このブラウザーは {current} を使っています。ここのゲートウェイは変更していません。信頼できる場合にのみバックアップのものを選んでください。選ぶと API キーが {address} に送信されます。',
  'backup.gateway.keep': '{current} のままにする',
  'backup.gateway.use': '{address} を使い、API キーをそこへ送信する',
  'backup.gateway.used': 'ゲートウェイを {address} にしました。',
  'backup.gateway.kept': 'ゲートウェイは {current} のままです。',
  'backup.gateway.ownServer': 'このアプリ自身のサーバー',
  'backup.restored.changes':
    '{headline}{withConversations, select, yes {会話: {conversations}。} other {}}{files, plural, =0 {} other {添付ファイル: 新規 # 件。}}{settings, select, applied {設定を適用しました（API キーはそのままです）。} unchanged {設定はすでにバックアップと同じです。} other {}}{reload, select, yes {表示するにはページを再読み込みしてください。} other {}}',
  'markdownExport.replayTitle': '再生: {file}',
  'markdownExport.untitled': '無題の会話',
  'markdownExport.exported':
    '{now} に HopBase Chat からエクスポート · 開始 {started} · メッセージ {messages} 件 · 課金トークン {tokens, number}（全試行）{others, plural, =0 {} other { · 他のバージョンのメッセージ {others} 件は省略}}',
  'markdownExport.systemPrompt': 'システムプロンプト',
  'markdownExport.you': 'あなた',
  'markdownExport.empty': '（空）',
  'markdownExport.attached': '添付: {files}',
  'markdownExport.textFile': 'テキスト',
  'markdownExport.version': 'バージョン {position}/{count}',
  'markdownExport.answer': '回答',
  'markdownExport.replayedFrom': '{file} から再生',
  'markdownExport.noAttempt': '試行は行われませんでした。',
  'markdownExport.failedBeforeOutput': '**失敗**（出力前）: {title}（{details}）',
  'markdownExport.stillStreaming': '**未完了**: エクスポート時点で回答はまだ受信中でした。',
  'markdownExport.unfinished':
    '{status, select, error {**失敗**} interrupted {**未完了**（中断）} other {**未完了**（停止）}}: {title}{withDetails, select, yes {（{details}）} other {}}。それまでに届いた内容は下に残しています。',
  'markdownExport.notFinished': '回答が最後まで届きませんでした',
  'markdownExport.cutShort': '**未完了**: {title}。',
  'markdownExport.reasoning': '推論',
  'markdownExport.refusal': '**拒否**: {text}',
  'markdownExport.toolCall': 'ツール呼び出し: {name}（{id}）',
  'markdownExport.argumentsIncomplete': '引数（不完全）:',
  'markdownExport.noOutput': '出力なし。',
  'markdownExport.usage':
    '使用量: 入力 {input, number} · 出力 {output, number} · 合計 {total, number}{reasoning, plural, =0 {{cached, plural, =0 {} other {（キャッシュ #）}}} other {（推論 #{cached, plural, =0 {} other {、キャッシュ {cached, number}}}）}}',
  'markdownExport.shownAttempt': '表示しているのは試行 {total}/{total} です。それ以前の試行:',
  'markdownExport.earlierAttempt':
    '試行 {n}/{total}、{time}: {status, select, error {失敗} complete {完了} streaming {エクスポート時に受信中} interrupted {中断} other {停止}}{tokens, plural, =0 {} other {（出力トークン {tokens, number} 件の後）}}{withError, select, yes {（{error}）} other {}}',
  'markdownExport.toolResult': 'ツールの結果',
  'markdownExport.resultOf': '{id} の結果:',
  // Settings: usage (team mode)
  'usage.legend': '使用量',
  'usage.help':
    'サーバーが中継した回答から数えたトークン数です（日ごと、UTC）。中断された試行も課金されます。',
  'usage.period': '期間',
  'usage.lastDays': '過去 {days, number} 日間',
  'usage.whose': '対象',
  'usage.whose.own': '自分',
  'usage.whose.everyone': '全員',
  'usage.loading': '使用量を読み込み中…',
  'usage.empty': 'この期間の使用量はありません。',
  'usage.signedOut': 'サインアウトしています。使用量を見るには、もう一度サインインしてください。',
  'usage.failed': '使用量を読み込めませんでした: {reason}',
  'usage.malformed': '使用量を読み込めませんでした: サーバーの応答が想定と異なります。',
  'usage.caption': '{whose, select, everyone {全員の使用量} other {自分の使用量}}、{days}（UTC）',
  'usage.day': '日付',
  'usage.input': '入力トークン',
  'usage.output': '出力トークン',
  'usage.cached': 'キャッシュ済みトークン',
  'usage.attempts': '試行',
  'usage.interrupted': '中断',
  'usage.total': '合計',
  // 使用量ページ (src/components/usage/)
  'usagePage.title': '使用量とコスト',
  'usagePage.help.local':
    'このブラウザーに保存されたすべての試行（失敗したものも含む）を、開始した日ごとに集計します。入力トークンにはキャッシュ済みトークンが、出力トークンには推論トークンが含まれます。',
  'usagePage.help.team':
    'サーバーが中継した回答から数えた使用量を、日ごと（UTC）に価格表の価格で計算しています。ゲートウェイ自身の金額と長いプロンプトの価格はサーバーにはわかりません。入力トークンにはキャッシュ済みトークンが、出力トークンには推論トークンが含まれます。',
  'usagePage.groupBy': '集計単位',
  'usagePage.group': '{grouping, select, day {日ごと} model {モデルごと} other {プロトコルごと}}',
  'usagePage.col.key': '{grouping, select, day {日付} model {モデル} other {プロトコル}}',
  'usagePage.col.input': '入力トークン',
  'usagePage.col.cached': 'キャッシュ済み',
  'usagePage.col.output': '出力トークン',
  'usagePage.col.reasoning': '推論',
  'usagePage.col.cost': 'コスト',
  'usagePage.caption':
    '{grouping, select, day {日ごとの使用量} model {モデルごとの使用量} other {プロトコルごとの使用量}}{whose, select, everyone {（全員）} other {}}',
  'usagePage.chart':
    '{grouping, select, day {日ごと} model {モデルごと} other {プロトコルごと}}の入力トークン、出力トークン、コストの棒グラフ。下の表に同じ数値があります。',
  'usagePage.chart.failed': 'グラフを読み込めませんでした。数値は下の表にあります。',
  'usagePage.csv.cost': 'コスト（USD）',
  'usagePage.csv.note': '注記',
  'usagePage.csv.partial': '最低額：価格または使用量のない試行があります',
  'usagePage.export': 'CSV を書き出す',
  'usagePage.empty': 'まだ使用量はありません。',
  // What answers cost (src/components/cost/)
  'cost.figure':
    '{certainty, select, partial {{amount} 以上} other {{amount}}}{gateway, select, all {（ゲートウェイの金額）} some {（一部ゲートウェイの金額）} other {}}{attempts, plural, =1 {} other {（# 回の試行）}}',
  'cost.unknown': '価格不明',
  'cost.label': '費用：{figure}',
  'cost.breakdown': 'この回答の費用',
  'cost.attempt': '試行 {n, number}/{count, number}：{status}',
  'cost.col.kind': 'トークン',
  'cost.col.tokens': '数',
  'cost.col.price': '100 万あたり',
  'cost.col.amount': '費用',
  'cost.line.input': '入力',
  'cost.line.cached': 'キャッシュ読み取り',
  'cost.line.cacheWrite': 'キャッシュ書き込み',
  'cost.line.cacheWrite1h': 'キャッシュ書き込み（1 時間）',
  'cost.line.output': '出力',
  'cost.line.reasoning': '推論',
  'cost.line.total': '合計',
  'cost.note.longContext':
    'プロンプトが 200,000 トークンを超えたため、長いコンテキストの価格が適用されます。',
  'cost.note.gateway':
    'ゲートウェイ自身が {amount} と報告しており、この金額が優先されます。{estimate, select, none {} other {価格表では {estimate} になります。}}',
  'cost.note.unpriced': '{model} の価格がありません。設定の「価格」で追加してください。',
  'cost.note.unmetered': '使用量が報告されなかったため、この試行の費用は不明です。',
  'cost.note.none': '開始前に拒否されたため、請求はありません。',
  'cost.note.sum': 'この回答の費用は {count, number} 回の試行の合計です。どの試行も請求されています。',
  'cost.conversation.title': 'この会話の費用（すべての試行を含む）',
  'cost.inspector': '費用',
  'cost.settings.legend': '価格',
  'cost.settings.help':
    '回答はサーバーの価格表（{count, plural, other {# モデル}}）で計算されます。ここで LiteLLM の JSON 形式（1 トークンあたりのドル）で価格を追加・変更できます。例：{example}',
  'cost.settings.label': '自分の価格',
  'cost.settings.read': 'ここで {count, plural, other {# モデル}}に価格を設定しています。',
  'cost.settings.skipped': '{count, plural, other {# 件}}を除外しました：{list}。',
  'cost.settings.skippedEntry':
    '{field, select, none {{model} はオブジェクトではありません} other {{model}：{field} が {value} です}}',
  'cost.settings.notJson': 'JSON ではありません（{reason}）。サーバーの価格を使います。',
  'cost.settings.notTable':
    'モデルのオブジェクト（LiteLLM の形式）ではありません。サーバーの価格を使います。',
  'cost.context.label': 'コンテキストウィンドウ',
  'cost.context.fill': '{window, number} トークン中 {next, number}（{percent, number, percent}）',
  'cost.context.near':
    'コンテキストウィンドウがほぼいっぱいです。次のメッセージは収まらない可能性があります（{window, number} トークン中 {next, number}）。',
  'cost.context.over':
    'このメッセージはモデルのコンテキストウィンドウに収まりません（{window, number} トークン中 {next, number}）。短くするか、新しいチャットを始めてください。',
};
