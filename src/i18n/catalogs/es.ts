import type { Catalog } from './en.ts';

/** Spanish, neutral (es), addressing the person as tú, as current software in Spanish does. */
export const es: Catalog = {
  'app.closeConversations': 'Cerrar conversaciones',
  'toolbar.conversations': 'Conversaciones',
  'toolbar.usage':
    '<label>Conversación:</label> {input, number} entrada · {output, number} salida · {total, number} total',
  'toolbar.usage.title': 'Tokens facturados en esta conversación, con todos los intentos',
  'toolbar.recordings': 'Grabaciones',
  'toolbar.recordings.title': 'Importar y reproducir un stream grabado',
  'toolbar.settings': 'Ajustes',
  'protocol.label': 'Protocolo',
  'model.label': 'Modelo',
  'model.loading': '{model} (cargando modelos…)',
  'model.withDescription': '{model} — {description}',
  'model.reload': 'Recargar modelos',
  'model.error.status': 'No se pudo cargar la lista de modelos (HTTP {status}).',
  'model.error.baseUrl': 'La URL base del gateway en Ajustes no es una dirección http(s) completa.',
  'model.error.policy':
    'La política de seguridad de este servidor no permite conectarse a {origin}: pide al administrador que la añada a HOPBASE_CONNECT_SRC o deja vacía la URL base.',
  'reasoning.label': 'Razonamiento',
  'reasoning.level': '{level, select, off {No} low {Bajo} medium {Medio} high {Alto} other {{level}}}',
  'reasoning.explain.off': '{protocol}: sin parámetro de razonamiento (lo que el modelo haga por defecto)',
  'reasoning.explain.chat': '{protocol}: reasoning_effort "{level}"',
  'reasoning.explain.responses': '{protocol}: esfuerzo de razonamiento "{level}", con su resumen en directo',
  'reasoning.explain.messages':
    '{protocol}: razonamiento con un presupuesto de {budget, number} tokens (Ajustes)',

  // Compare: models side by side (src/components/compare/)
  'compare.button': 'Comparar',
  'compare.button.title': 'Comparar modelos lado a lado: un mensaje para todas las columnas',
  'compare.region': 'Comparar',
  'compare.column': 'Columna {n, number}',
  'compare.addColumn': 'Añadir columna',
  'compare.removeColumn': 'Quitar columna',
  'compare.hint':
    'Tu próximo mensaje va a todas las columnas a la vez. Cada respuesta queda en la conversación como una versión; la que conserves es desde la que continúa.',
  'compare.prompt': 'Prompt: {text}',
  'compare.noAnswer': 'Aún no hay respuesta en esta columna.',
  'compare.keep': 'Conservar esta respuesta',
  'compare.kept': 'La respuesta de la conversación',

  'load.failed':
    'No se pudo cargar esta parte de la aplicación: puede que no haya conexión o que se haya publicado una versión nueva. Recarga la página para obtenerla; lo que escribiste y tus conversaciones se conservan.',
  'action.retry': 'Reintentar',
  'action.stop': 'Detener',
  'action.close': 'Cerrar',
  'action.save': 'Guardar',
  'action.dismiss': 'Descartar',
  'action.reload': 'Recargar',
  'copy.copied': 'Copiado',
  'copy.failed': 'No se pudo copiar',

  'banner.lead': '<strong>{title}.</strong> {advice}',
  'autoRetry.announce':
    'La solicitud falló antes de recibir respuesta. Se reintentará automáticamente en breve: intento {attempt} de {of}.',
  'autoRetry.countdown': 'Reintento automático en {seconds} (intento {attempt} de {of}).',
  'autoRetry.cancel': 'Cancelar reintento',
  'stall.silent.announce':
    'El modelo ha dejado de responder, pero la conexión sigue activa. Puedes esperar, reintentar o detenerlo.',
  'stall.dead.announce':
    'La conexión parece caída: hace un rato que no llega nada, ni siquiera un keepalive. Reintentar es probablemente lo más rápido para obtener la respuesta.',
  'stall.silent.keepalive':
    '<strong>El modelo no ha producido nada en {silent}.</strong> La conexión sigue activa (último keepalive hace {ago}). El gateway abandona a un modelo en silencio tras unos 90–150 s.',
  'stall.silent.bytes':
    '<strong>El modelo no ha producido nada en {silent}.</strong> La conexión sigue activa (últimos datos hace {ago}). El gateway abandona a un modelo en silencio tras unos 90–150 s.',
  'relay.reconnecting.announce':
    'Se perdió la conexión con el servidor. La respuesta continúa en el servidor; reconectando.',
  'relay.reconnecting':
    '<strong>Reconectando con el servidor.</strong> La respuesta continúa allí y seguirá aquí desde donde estaba en cuanto la página vuelva a conectar.',
  'stall.dead':
    '<strong>La conexión parece caída.</strong> No ha llegado nada en {ago}, ni siquiera un keepalive (el gateway envía uno cada 10 s aproximadamente). Reintentar es probablemente lo más rápido para obtener la respuesta.',
  'interruption.text':
    '<strong>{title}.</strong> {advice}{silence, select, none {} other { El modelo llevaba {silence} sin producir nada.}}{partial, select, yes { La respuesta parcial de arriba se conserva, y lo generado se factura.} other {}}',
  'interruption.details': 'Detalles',
  'interruption.requestId': 'ID de solicitud: {id}',
  'interruption.retryIn': 'Podrás reintentar en {seconds}',

  'failure.http_400.title': 'El gateway rechazó la solicitud',
  'failure.http_400.advice':
    'Este modelo no acepta algún parámetro o el historial. Revisa los detalles de abajo, cambia los ajustes y vuelve a enviar.',
  'failure.http_401.title': 'La clave de API no es válida',
  'failure.http_401.advice': 'Abre Ajustes y revisa la clave de API.',
  'failure.http_403.title': 'Acceso denegado',
  'failure.http_403.advice':
    'Puede que esta clave no tenga acceso a este modelo o región. Revisa la clave y el modelo en Ajustes.',
  'failure.http_404.title': 'No encontrado',
  'failure.http_404.advice':
    'El modelo o la ruta no existen en este gateway. Elige otro modelo o revisa la URL base en Ajustes.',
  'failure.http_408.title': 'Se agotó el tiempo de la solicitud',
  'failure.http_408.advice': 'Inténtalo de nuevo.',
  'failure.http_413.title': 'La solicitud es demasiado grande',
  'failure.http_413.advice': 'Acorta el mensaje o empieza una conversación nueva con menos historial.',
  'failure.http_422.title': 'No se pudo procesar la solicitud',
  'failure.http_422.advice': 'Revisa los detalles de abajo.',
  'failure.http_429.title': 'Límite de solicitudes alcanzado',
  'failure.http_429.advice': 'Demasiadas solicitudes por ahora. Espera un momento y vuelve a intentarlo.',
  'failure.http_500.title': 'Error interno del gateway',
  'failure.http_500.advice': 'Suele ser temporal. Reintenta en un momento.',
  'failure.http_502.title': 'Gateway incorrecto',
  'failure.http_502.advice': 'Falló un proxy situado delante del modelo. Reintenta en un momento.',
  'failure.http_503.title': 'Servicio no disponible',
  'failure.http_503.advice': 'El modelo está saturado o no disponible por ahora. Reintenta en un momento.',
  'failure.http_504.title': 'Tiempo de espera del gateway agotado',
  'failure.http_504.advice': 'El modelo tardó demasiado en empezar a responder. Reintenta en un momento.',
  'failure.http_529.title': 'El modelo está saturado',
  'failure.http_529.advice': 'Anthropic tiene mucha carga. Reintenta en un momento.',
  'failure.http_status.title': 'El gateway respondió HTTP {status}',
  'failure.http_status.advice': 'Revisa los detalles de abajo.',
  'failure.http_status_retryable.title': 'El gateway respondió HTTP {status}',
  'failure.http_status_retryable.advice': 'Reintenta en un momento.',
  'failure.rate_limit_mid_answer.title': 'Límite de solicitudes alcanzado a mitad de respuesta',
  'failure.rate_limit_mid_answer.advice':
    'Un límite de solicitudes cortó la respuesta. Espera un momento y reintenta la solicitud completa.',
  'failure.insufficient_quota.title': 'Cuota agotada',
  'failure.insufficient_quota.advice':
    'La cuenta no tiene cuota disponible. Reintentar no servirá hasta que se resuelva el plan o la facturación.',
  'failure.server_error.title': 'El modelo falló a mitad de respuesta',
  'failure.server_error.advice':
    'Un error del servidor cortó el stream. La respuesta parcial no se puede continuar: al reintentar se envía de nuevo la solicitud completa.',
  'failure.invalid_prompt.title': 'El mensaje fue rechazado',
  'failure.invalid_prompt.advice':
    'El modelo rechazó este mensaje tal como está. Cámbialo antes de volver a enviarlo; si reintentas sin cambios, volverá a fallar.',
  'failure.api_error.title': 'El stream se interrumpió',
  'failure.api_error.advice':
    'El gateway perdió el contacto con el modelo a mitad de respuesta. La respuesta parcial no se puede continuar: al reintentar se envía de nuevo la solicitud completa.',
  'failure.overloaded_error.title': 'El modelo está saturado',
  'failure.overloaded_error.advice':
    'El modelo se detuvo a mitad de respuesta porque está saturado. Reintenta en un momento.',
  'failure.timeout_error.title': 'Se agotó el tiempo del modelo',
  'failure.timeout_error.advice': 'Reintenta la solicitud completa.',
  'failure.malformed_event.title': 'El stream llegó dañado',
  'failure.malformed_event.advice':
    'El servidor envió un evento que no se pudo leer: JSON no válido, un evento conocido al que le falta un campo obligatorio, o una segunda respuesta mezclada con esta (los detalles dicen cuál). Lo envió así el gateway o un proxy delante de él; la conexión en sí funcionaba bien. Reintenta la solicitud.',
  'failure.too_large.title': 'La respuesta es demasiado grande para guardarla',
  'failure.too_large.advice':
    'Superó lo que HopBase Chat guarda de una respuesta ({answerChars, number} caracteres de texto, razonamiento y argumentos de herramientas, o {eventChars, number} en un solo evento), así que la lectura se detuvo ahí y se canceló la solicitud. Se conserva todo lo recibido hasta ese punto. Reintentar chocará con el mismo límite: pide una respuesta más corta.',
  'failure.app_error.title': 'HopBase Chat falló al procesar esta respuesta',
  'failure.app_error.advice':
    'Es un error de la aplicación, no de la red ni del gateway. Al reintentar se envía de nuevo la misma solicitud; si vuelve a pasar, exporta la grabación (Inspeccionar y luego Exportar) y notifícalo.',
  'failure.interrupted.title': 'La conexión se cerró antes de tiempo',
  'failure.interrupted.advice':
    'El stream terminó sin su evento final: puede que lo cortara un proxy o la red. Al reintentar se envía de nuevo la solicitud completa.',
  'failure.page_reloaded.title': 'Interrumpida por una recarga',
  'failure.page_reloaded.advice':
    'La página se cerró mientras llegaba esta respuesta. Al reintentar se envía de nuevo la misma solicitud.',
  'failure.aborted.title': 'Detenida',
  'failure.aborted.advice': 'Detuviste esta respuesta. Al reintentar se envía de nuevo la misma solicitud.',
  'failure.network_error.title': 'No se pudo conectar con el gateway',
  'failure.network_error.advice': 'Revisa la conexión y la URL base en Ajustes.',
  'failure.blocked_by_policy.title': 'Esta página no puede conectarse a ese gateway',
  'failure.blocked_by_policy.advice':
    'La política de seguridad del servidor (Content-Security-Policy, connect-src) no incluye el origen del gateway. Pide al administrador que lo añada a HOPBASE_CONNECT_SRC, o deja vacía la URL base en Ajustes para usar el proxy /v1 de este servidor.',
  'failure.unexpected_response.title': 'Respuesta inesperada',
  'failure.unexpected_response.advice':
    'El gateway no respondió con un stream de eventos. Revisa la URL base en Ajustes.',
  'failure.attachment_missing.title': 'Un archivo adjunto ya no está guardado',
  'failure.attachment_missing.advice':
    'Sus datos ya no están en este navegador (el almacenamiento estaba lleno al enviar el mensaje o se ha borrado después), así que la solicitud no puede enviarse tal como era. Vuelve a enviar el mensaje con el archivo adjunto.',
  'failure.not_sent.title': 'No enviada: la API rechazaría estos ajustes',
  'failure.not_sent.advice':
    '{problem, select, budget_too_small {Anthropic Messages necesita un presupuesto de razonamiento de al menos {min, number} tokens (ahora es de {budget, number}). Cámbialo en Ajustes → Razonamiento.} limit_not_above_budget {Anthropic Messages necesita un límite de salida mayor que el presupuesto de razonamiento: «Máx. de tokens de salida» es {limit, number} y el presupuesto {effort, select, low {bajo} medium {medio} other {alto}}, {budget, number}. Sube el máximo de tokens de salida en Parámetros (o déjalo vacío), baja el presupuesto en Ajustes o elige un nivel de Razonamiento más bajo.} temperature_while_thinking {Anthropic Messages no admite una temperatura mientras razona (ahora es {temperature, number}). Vacía Temperatura en Parámetros o pon Razonamiento en No.} top_p_while_thinking {Mientras razona, Anthropic Messages solo admite un Top P de {min, number} a 1 (ahora es {topP, number}). Súbelo o vacíalo en Parámetros, o pon Razonamiento en No.} forced_tool_while_thinking {Anthropic Messages no puede razonar mientras se obliga a llamar a una herramienta ({forced, select, required {la elección de herramienta es Obligatoria} tool {la elección de herramienta nombra una herramienta} other {hay un esquema de la respuesta, que Anthropic recibe como herramienta obligatoria}}). En Herramientas, pon la elección de herramienta en Automática{forced, select, structured { o vacía el esquema de la respuesta} other {}}, o pon Razonamiento en No.} parameter_out_of_range {{api} no admite {name, select, temperature {Temperatura} topP {Top P} maxOutputTokens {Máx. de tokens de salida} seed {Semilla} presencePenalty {Penalización por presencia} other {Penalización por frecuencia}} {value, number}: {whole, select, yes {admite un número entero} other {admite un número}} {max, select, none {de al menos {min, number}} other {de {min, number} a {max, number}}}. Cámbialo en Parámetros.} too_many_stop_sequences {{api} admite como máximo {max, number} secuencias de parada (hay {count, number}). Quita algunas en Parámetros.} other {{problem}}}',
  'failure.stream_error.title': 'El modelo informó de un error',
  'failure.stream_error.advice':
    'El stream terminó con un error. Al reintentar se envía de nuevo la solicitud completa.',

  'finish.context_window.title': 'La conversación llenó la ventana de contexto del modelo',
  'finish.context_window.advice':
    '{shown, select, yes {Se muestra lo recibido hasta entonces. } other {}}Para seguir, empieza una conversación nueva o una con menos historial.',
  'finish.output_limit.title':
    'La respuesta alcanzó el límite de tokens de salida{withRaw, select, yes { ({raw})} other {}}',
  'finish.output_limit.advice':
    '{cut, select, yes {También se cortó su última llamada a herramienta, así que no se puede ejecutar. } other {}}Sube «Máx. de tokens de salida» en Ajustes y vuelve a enviar la pregunta, o pide al modelo que continúe.',
  'finish.content_filter.title':
    'El filtro de contenido del proveedor detuvo la respuesta{withRaw, select, yes { ({raw})} other {}}',
  'finish.content_filter.advice':
    '{shown, select, yes {Se muestra lo recibido hasta entonces. } other {}}Reformular la solicitud puede ayudar.',
  'finish.refusal.title': 'El modelo se negó a responder{withRaw, select, yes { ({raw})} other {}}',
  'finish.refusal.advice': '{shown, select, yes {Se muestra lo recibido hasta entonces.} other {}}',
  'finish.pause_turn.title': 'El modelo pausó un paso de larga duración (pause_turn)',
  'finish.pause_turn.advice':
    '{shown, select, yes {Se muestra lo recibido hasta entonces. } other {}}Esta aplicación no reanuda ese paso: vuelve a enviar la pregunta para empezarlo de nuevo.',

  'storage.loadError':
    'No se pudieron leer las conversaciones guardadas: {error} No se ha cambiado nada de lo guardado, y esta pestaña no lo sobrescribirá: las conversaciones nuevas se guardan aparte. Al recargar la página puede que se lea bien.',
  'address.missing':
    'Ninguna de tus conversaciones tiene esta dirección. Puede que se haya eliminado, o que el enlace sea de otra persona.',
  'signIn.title': 'Inicia sesión en HopBase Chat',
  'signIn.oidc':
    'Este HopBase Chat lo comparte un equipo. Inicia sesión para ver tus conversaciones en todos tus dispositivos.',
  'signIn.button': 'Iniciar sesión',
  'signIn.header':
    'El servicio de inicio de sesión delante de este servidor no ha dicho quién eres. Recarga la página o pregunta a quien administra este servidor.',
  'account.label': 'Tu cuenta',
  'account.sync':
    '{state, select, connecting {Conectando con el servidor…} live {Guardado en el servidor} offline {Sin conexión: los cambios se guardan aquí y se envían cuando vuelva el servidor} other {Sesión cerrada: los cambios se guardan aquí}}',
  'account.pending':
    '{n, plural, one {# cambio aún no está en el servidor} other {# cambios aún no están en el servidor}}',
  'account.signOut': 'Cerrar sesión',
  'account.signOut.pending':
    '{n, plural, one {# cambio aún no está} other {# cambios aún no están}} en el servidor. Si cierras sesión ahora, se quedan en este navegador y se envían cuando vuelvas a iniciar sesión aquí.',
  'account.signOut.anyway': 'Cerrar sesión igualmente',
  'account.signOut.failed': 'No se pudo cerrar la sesión: {reason}',
  'team.sessionEnded':
    'Has cerrado sesión: la sesión terminó o la cerraste en otro dispositivo. Lo que cambies aquí se guarda en este navegador y se envía cuando vuelvas a iniciar sesión.',
  'team.signInAgain': 'Volver a iniciar sesión',
  'team.localHistory.offer':
    'Este navegador guardó {n, plural, one {# conversación} other {# conversaciones}} de antes de que iniciaras sesión. ¿{n, plural, one {La añades} other {Las añades}} a tu cuenta?',
  'team.localHistory.add': 'Añadir a mi cuenta',
  'team.localHistory.decline': 'No, gracias',
  'team.localHistory.adding':
    'Añadiendo {n, plural, one {# conversación} other {# conversaciones}} a tu cuenta…',
  'team.localHistory.added':
    'Se {n, plural, one {añadió # conversación} other {añadieron # conversaciones}} a tu cuenta.',
  'team.refused': 'El servidor no quiso guardar «{title}»: {reason} Se queda en este navegador.',
  'storage.saveError':
    'No se pudieron guardar los cambios en este navegador: {error} Se reintenta automáticamente; hasta que funcione, recargar la página perdería los últimos mensajes.',
  'unreadable.region': 'Datos guardados que no se pudieron leer',
  'unreadable.conversations': '{n, plural, one {# conversación guardada} other {# conversaciones guardadas}}',
  'unreadable.recordings': '{n, plural, one {# grabación} other {# grabaciones}}',
  'unreadable.requests': '{n, plural, one {# solicitud enviada} other {# solicitudes enviadas}}',
  'unreadable.settings': '{n, plural, one {# registro de ajustes} other {# registros de ajustes}}',
  'unreadable.summary':
    '<strong>No se pudo leer: {count}.</strong> {n, plural, one {Se conserva tal cual en el almacenamiento de este navegador, sin sobrescribirse; todo lo demás se cargó. Descárgalo para guardar una copia o enviarlo al soporte.} other {Se conservan tal cual en el almacenamiento de este navegador, sin sobrescribirse; todo lo demás se cargó. Descárgalos para guardar una copia o enviarlos al soporte.}}',
  'unreadable.resetSettings':
    'Algunos ajustes guardados no se pudieron leer y volvieron a su valor predeterminado: {names}.',
  'unreadable.whatIsWrong': 'Qué falla',
  'unreadable.download': 'Descargar registros ilegibles',
  'storage.legend': 'Almacenamiento en este navegador',
  'storage.usage':
    'Las conversaciones, grabaciones y ajustes se guardan solo en este navegador. {known, select, yes {En uso: {used} de los {quota} que permite.} other {Este navegador no indica cuánto espacio ocupan.}}',
  'storage.persisted': 'Se conserva hasta que lo borres: el navegador no lo eliminará para liberar espacio.',
  'storage.mayRemove': 'El navegador puede eliminarlo si se queda sin espacio.',
  'storage.askKeep': 'Pedir al navegador que lo conserve',
  'storage.unreadable': 'No se pudo leer: {count}; se conserva sin cambios.',

  'settings.title': 'Ajustes',
  'settings.language': 'Idioma',
  'settings.language.auto': 'Automático (navegador)',
  'settings.gateway': 'Gateway',
  'settings.baseUrl':
    'URL base del gateway (vacía: el /v1 de este servidor, el simulador o el proxy de desarrollo)',
  'settings.baseUrl.direct':
    'Llamada directamente, la pasarela responde solo mientras esta página está abierta: recargarla o cerrar la pestaña termina la respuesta. Si se deja vacío, el propio servidor de la app (npm run serve) lleva cada respuesta hasta el final y la página la retoma.',
  'settings.baseUrl.invalid':
    'Escribe una dirección http:// o https:// completa (como https://gateway.example.com/v1), o déjala vacía. El gateway en uso no ha cambiado.',
  'settings.apiKey': 'Clave de API',
  'settings.rememberKey':
    'Recordar la clave de API en este navegador (si no, solo se guarda para esta pestaña)',
  'settings.model': 'Modelo',
  'settings.systemPrompt': 'Prompt del sistema para nuevos chats',
  'settings.maxOutputTokens': 'Máx. de tokens de salida',
  'settings.temperature': 'Temperatura',
  'settings.modelDefault': 'la del modelo',
  'settings.offerTools': 'Ofrecer al modelo la herramienta de demostración (get_weather)',
  'settings.budgets': 'Razonamiento: presupuestos',
  'settings.budgets.help':
    'El nivel de Razonamiento de la barra de herramientas se envía a Chat Completions y Responses como esfuerzo; Anthropic Messages razona dentro de un presupuesto de tokens, uno por nivel. Debe ser menor que «Máx. de tokens de salida» si lo defines (vacío: el presupuesto más 4096), y al razonar no admite Temperatura.',
  'settings.budget':
    '{effort, select, low {Presupuesto bajo (tokens)} medium {Presupuesto medio (tokens)} other {Presupuesto alto (tokens)}}',
  'settings.budget.invalid': 'Un número entero de al menos {min, number}; se usa {value, number}.',
  'settings.stalls': 'Bloqueos y reintentos',
  'settings.stallSilent': 'Aviso de bloqueo tras (segundos sin salida)',
  'settings.stallDead': 'Conexión caída tras (segundos sin ningún byte)',
  'settings.autoRetry':
    'Reintentar automáticamente si una solicitud falla antes de cualquier salida (429, 5xx)',

  'sidebar.label': 'Conversaciones',
  'sidebar.new': 'Nuevo chat',
  'sidebar.untitled': 'Nuevo chat',
  'sidebar.replayTitle': 'Reproducción: {file}',
  'sidebar.empty': 'Aún no hay conversaciones.',
  'sidebar.more': 'Mostrar {n, plural, one {# conversación más} other {# conversaciones más}}',
  'sidebar.meta':
    '{streaming, select, yes {recibiendo… · } other {}}{tokens, plural, one {# token} other {# tokens}} · {when}',
  'sidebar.titleField': 'Título de la conversación',
  'sidebar.export': 'Exportar',
  'sidebar.export.label': 'Exportar {title}',
  'sidebar.rename': 'Renombrar',
  'sidebar.rename.label': 'Renombrar {title}',
  'sidebar.delete': 'Eliminar',
  'sidebar.delete.label': 'Eliminar {title}',
  'export.as': 'Exportar como',
  'export.markdown': 'Markdown',
  'export.markdown.label': 'Exportar {title} como Markdown',
  'export.json': 'JSON',
  'export.json.label': 'Exportar {title} como JSON',
  'export.reading':
    '{n, plural, one {Leyendo # grabación para el archivo…} other {Leyendo # grabaciones para el archivo…}}',
  'export.recordingsUnread':
    '{n, plural, one {No se pudo leer # grabación; el archivo tiene el resto.} other {No se pudieron leer # grabaciones; el archivo tiene el resto.}}',
  'export.unavailable': 'No se pudo cargar la exportación. Comprueba la conexión y vuelve a intentarlo.',
  'search.label': 'Buscar conversaciones',
  'search.placeholder': 'Buscar ({shortcut} o /)',
  'search.results': 'Resultados de la búsqueda',
  'search.kind':
    '{kind, select, user {Tú:} answer {Respuesta:} reasoning {Razonamiento:} refusal {Rechazo:} tool_call {Llamada a herramienta:} other {Resultado de herramienta:}}',
  'search.unavailable': 'No se pudo cargar la búsqueda. Comprueba la conexión y vuelve a escribir.',
  'search.searching': 'Buscando…',
  'search.readingSome': 'Aún se están leyendo conversaciones antiguas: los resultados las incluirán.',
  'search.reading':
    '{n, plural, one {Aún se está leyendo # conversación antigua} other {Aún se están leyendo # conversaciones antiguas}}: los resultados {n, plural, one {la incluirán} other {las incluirán}}.',
  'search.withReading': '{summary} {reading}',
  'search.none': 'Ninguna conversación coincide con «{query}».',
  'search.found':
    '{total, plural, one {# conversación coincide} other {# conversaciones coinciden}}{more, select, yes {; se muestran las primeras {shown, number}} other {}}.',

  'usage.line':
    '{input, number} entrada · {output, number} salida · {total, number} total{reasoning, plural, =0 {} other { · # razonamiento}}{cached, plural, =0 {} other { · # en caché}}{written, plural, =0 {} other { · # escritos en caché}}',
  'usage.title':
    'Uso de tokens: {input, number} de entrada, {output, number} de salida, {total, number} en total{reasoning, plural, =0 {} other {, # de razonamiento}}{cached, plural, =0 {} other {, # en caché}}{written, plural, =0 {} other {, # escritos en caché}}',
  'usage.unknown': 'uso desconocido',
  'usage.unknown.title': 'No se informó del uso de tokens',
  'reasoning.thinking': 'Pensando…',
  'reasoning.section': 'Razonamiento',
  'reasoning.note.leftOut':
    '{protocol} empieza sin el estado de razonamiento de las respuestas anteriores de {earlier}: las firmas de razonamiento y el razonamiento cifrado solo funcionan con el protocolo que los generó. Su razonamiento se sigue mostrando arriba.',
  'reasoning.note.paused':
    'Enviada sin razonamiento: esta respuesta continúa llamadas a herramientas hechas sin él, y Anthropic Messages razona durante todo un turno o nada. El siguiente mensaje vuelve a razonar.',
  'tool.region': 'Llamada a herramienta {name}',
  'tool.callId': 'ID de la llamada',
  'tool.receiving': 'recibiendo…',
  'tool.invalidJson': 'Los argumentos no son JSON válido (puede que la respuesta se cortara)',
  'tool.resultFor': 'Resultado de {name}',
  'tool.send': 'Enviar resultado',
  'tool.resultSent': 'Resultado enviado',
  // The Tools dialog (from Parameters) and structured answers
  'tools.open': 'Herramientas…',
  'tools.title': 'Herramientas',
  'tools.note':
    'Se ofrecen al modelo con cada solicitud de este chat, en la forma que acepta {api}. Cada cambio se aplica a este chat al instante.',
  'tools.chat': 'Herramientas de este chat',
  'tools.none': 'Sin herramientas: el modelo solo puede responder con texto.',
  'tools.answeredBy':
    '{template, select, yes {Sus llamadas se responden con su plantilla de resultado.} other {Tú respondes a sus llamadas.}}',
  'tools.keep': 'Guardar {name} en la biblioteca',
  'tools.remove': 'Quitar {name}',
  'tools.choice': 'Elección de herramienta',
  'tools.choice.option':
    '{kind, select, auto {Automática: decide el modelo} required {Obligatoria: debe llamar a una herramienta} none {Ninguna: sin llamadas a herramientas} other {Solo {name}}}',
  'tools.add': 'Añadir herramienta',
  'tools.name': 'Nombre',
  'tools.description': 'Descripción',
  'tools.parameters': 'Parámetros (JSON Schema)',
  'tools.template': 'Plantilla de resultado (opcional)',
  'tools.template.hint':
    'Cuando el modelo llama a esta herramienta, esto se devuelve al instante como resultado, con cada {example} sustituido por ese argumento. Vacía: respondes tú a cada llamada.',
  'tools.error.name':
    '{problem, select, missing {Una herramienta necesita un nombre.} pattern {Solo letras, dígitos, _ y -, como mucho 64.} other {Este chat ya tiene una herramienta con ese nombre.}}',
  'tools.error.json': 'No es JSON válido.',
  'tools.error.jsonAt': 'No es JSON válido: línea {line, number}, columna {column, number}.',
  'tools.error.notObject': 'Aquí un esquema es un objeto JSON, no una lista ni un valor suelto.',
  'tools.error.schema':
    'No es un JSON Schema válido (borrador 2020-12) en {path}: incumple ahí la regla «{keyword}» del metaesquema.',
  'tools.error.refused': 'No se guardó nada: corrige los campos marcados.',
  'tools.library': 'Herramientas guardadas',
  'tools.library.empty':
    'Ninguna todavía. Una herramienta guardada en la biblioteca se puede usar en cualquier chat.',
  'tools.use': 'Usar {name}',
  'tools.delete': 'Eliminar {name} de la biblioteca',
  'tools.output': 'Salida estructurada',
  'tools.output.schema': 'Esquema de la respuesta (JSON Schema)',
  'tools.output.state':
    '{set, select, yes {Las respuestas deben cumplir este esquema (se le pide a {api}); cada una se comprueba al terminar.} other {Sin esquema: las respuestas son texto libre.}}',
  'tools.output.use': 'Usar esquema',
  'tools.output.stop': 'Dejar de usar el esquema',
  'tools.done': 'Listo',
  'tools.auto.limit':
    'No se respondió automáticamente: {max, number} respuestas seguidas se respondieron con plantillas de resultado. Responde tú a estas llamadas.',
  'structured.region': 'Respuesta estructurada',
  'structured.state':
    '{state, select, notJson {La respuesta no es JSON, así que no puede cumplir su esquema.} checking {Comprobando la respuesta con su esquema…} breaks {{count, plural, one {La respuesta incumple su esquema en # lugar.} other {La respuesta incumple su esquema en # lugares.}}} other {La respuesta cumple su esquema.}}',
  'structured.violations': 'Dónde incumple la respuesta su esquema',
  'structured.violation': '{path}: incumple «{keyword}»',
  'structured.mark': 'incumple «{keyword}»',
  'structured.tree': 'La respuesta como árbol',
  'structured.root': 'respuesta',
  'structured.kind':
    '{array, select, yes {{count, plural, one {lista de # elemento} other {lista de # elementos}}} other {{count, plural, one {objeto con # campo} other {objeto con # campos}}}}',

  // The conversation, the message box and attachments
  'answer.label': 'Respuesta de {model} vía {protocol}',
  'answer.status':
    '{status, select, streaming {generando} stopped {detenida} stopped_incomplete {detenida · incompleta} incomplete {incompleta} failed {fallida} other {completa}}',
  'answer.versions': 'Versiones de esta respuesta',
  'answer.copy': 'Copiar respuesta',
  'answer.regenerate': 'Regenerar',
  'answer.inspect': 'Inspeccionar',
  'answer.attempts': 'Intento {count, number} de {count, number}',
  'answer.attempt':
    'intento {n, number} de {count, number}: {status} tras {measure, select, tokens {{amount, plural, one {# token} other {# tokens}}} other {{amount, plural, one {# carácter} other {# caracteres}} (uso no informado)}}',
  'answer.refusal': 'El modelo se negó: {refusal}',
  'answer.waiting': 'Esperando la respuesta',
  'answer.billed':
    'Facturado en {attempts, number} intentos: {input, number} entrada · {output, number} salida',
  'answer.broken.label': 'Respuesta que no se puede mostrar',
  'answer.broken': 'No se puede mostrar esta respuesta.',
  // View code: an attempt's request as code to copy
  'code.view': 'Ver código',
  'code.viewAttempt': 'Ver código del intento {n, number}',
  'code.title': 'Código de esta solicitud',
  'code.subtitle': '{protocol}: POST {url}',
  'code.languages': 'Lenguaje',
  'code.tab.curl': 'cURL',
  'code.tab.python': 'Python',
  'code.tab.typescript': 'TypeScript',
  'code.tab.http': 'HTTP',
  'code.copy': 'Copiar',
  'code.help.curl':
    'Para bash o zsh. Define antes {variable} en tu terminal: la clave nunca se escribe en el código.',
  'code.help.python':
    'Necesita el paquete oficial {package} (pip install {package}). La clave se lee de {variable}.',
  'code.help.typescript':
    'Necesita el paquete oficial {package} (npm install {package}); se ejecuta como módulo ES, por ejemplo con npx tsx. La clave se lee de {variable}.',
  'code.help.http': 'La solicitud tal como viaja por la red; la clave va donde está {variable}.',
  'code.sameOrigin':
    'Esta página llama a la pasarela a través de su propio servidor. Ese servidor solo acepta llamadas de un script si ejecuta el simulador integrado o se inició con HOPBASE_PROXY_ALLOW_NO_ORIGIN=1; si no, usa la dirección propia de la pasarela.',
  'code.preparing': 'Incluyendo los archivos adjuntos en la solicitud…',
  'code.attachmentMissing':
    'Un archivo adjunto a esta solicitud ya no está guardado en este navegador, así que no se puede mostrar su código.',
  'code.shortened':
    'Este código ocupa {size}, así que aquí solo se muestra el principio. Copiar lo copia entero.',
  'message.versions': 'Versiones de tu mensaje',
  'message.edit': 'Editar',
  'message.editBox': 'Editar mensaje',
  'version.previous': 'Versión anterior',
  'version.next': 'Versión siguiente',
  'version.position': 'Versión {position, number} de {count, number}',
  'empty.intro':
    'Respuestas en streaming de Chat Completions, Responses y Anthropic Messages, con cada token contado y cada bloqueo explicado. Elige arriba un protocolo y un modelo: los modelos <code>sim-*</code> son el simulador integrado, con fallos a demanda.',
  'empty.example.table': 'Explica los server-sent events con una tabla y un ejemplo de código',
  'empty.example.tool': '¿Qué tiempo hace en París? Usa la herramienta.',
  'empty.example.haiku': 'Escribe un haiku breve sobre el streaming',
  'conversation.jumpLatest': 'Ir al final',
  'composer.label': 'Mensaje',
  'composer.placeholder': 'Escribe a HopBase… (Intro para enviar, Mayús+Intro para otra línea)',
  'composer.send': 'Enviar',
  'composer.attach': 'Adjuntar',
  'composer.attach.title': 'Adjunta imágenes o archivos de texto (también puedes pegarlos o soltarlos aquí)',
  'composer.picker': 'Archivos para adjuntar',
  'composer.dropHint': 'Suelta los archivos para adjuntarlos',
  'composer.pending': 'Adjuntos por enviar',
  'composer.remove': 'Quitar {name}',
  'attachments.label': 'Adjuntos',
  'attachments.notStored': 'no guardado aquí',
  'attach.empty': '{name} está vacío.',
  'attach.not_utf8': '{name} no es texto UTF-8: guárdalo como UTF-8 y vuelve a adjuntarlo.',
  'attach.unsupported':
    'No se puede adjuntar {name}: solo se admiten imágenes (PNG, JPEG, WebP, GIF) y archivos de texto o código (UTF-8).',
  'attach.image_kind':
    '{name} es una imagen de un tipo que los modelos no aceptan{extension, select, none {} other { ({extension})}}: usa PNG, JPEG, WebP o GIF.',
  'attach.image_too_large': '{name} ocupa {size}; una imagen puede ocupar como máximo {limit}.',
  'attach.text_too_large': '{name} ocupa {size}; un archivo de texto puede ocupar como máximo {limit}.',
  'attach.message_too_large':
    'No se adjuntó {name}: con él, este mensaje llevaría {size} en archivos, y el máximo es {limit}.',
  'attach.too_many': 'No se adjuntó {name}: un mensaje puede llevar como máximo {limit, number} archivos.',
  'attach.unreadable': 'No se pudo leer {name}: {error}',
  'attach.not_stored': 'No se adjuntó {name}: este navegador no pudo guardarlo ({error}).',

  // El inspector, los bloques de código, el prompt del sistema, las copias de seguridad y las exportaciones
  'action.cancel': 'Cancelar',
  'inspector.label': 'Inspector',
  'inspector.close': 'Cerrar inspector',
  'inspector.empty': 'Elige «Inspeccionar» en una respuesta para ver lo que llegó por la red.',
  'inspector.noAttempt': 'Aún no hay ningún intento grabado.',
  'inspector.attempts': 'Intentos',
  'inspector.attempt':
    'Intento {n, number} · {status, select, streaming {en curso} complete {completo} error {error} interrupted {interrumpido} aborted {detenido} other {{status}}}',
  'inspector.load.loading': 'Cargando grabación…',
  'inspector.load.missing':
    'Esta grabación no está guardada en este navegador: solo lo están la respuesta y su uso.',
  'inspector.load.unreadable':
    'No se pudo leer esta grabación. Se deja tal cual en el almacenamiento del navegador y puedes descargarla desde el aviso de registros ilegibles.',
  'inspector.load.failed': 'No se pudo leer esta grabación del almacenamiento del navegador.',
  'inspector.tryAgain': 'Volver a intentar',
  'inspector.capped':
    'Grabación limitada a {items, number} eventos, {itemChars} de datos de eventos y {rawBytes} de stream sin procesar: los eventos, la línea de tiempo y las exportaciones se detienen ahí (los nombres de archivo dicen «capped»); los bytes recibidos cuentan todo.',
  'inspector.partial':
    'Parcial: todavía en curso. Exportar y Traza JSON guardan lo que ha llegado hasta ahora, y los nombres de archivo dicen «partial».',
  'inspector.export': 'Exportar',
  'inspector.jsonTrace': 'Traza JSON',
  'inspector.body.loading': 'Cargando el cuerpo de esta solicitud…',
  'inspector.body.failed': 'No se pudo leer el cuerpo de esta solicitud del almacenamiento del navegador.',
  'inspector.body.missing':
    'El cuerpo de esta solicitud ya no está guardado: no se puede mostrar ni volver a enviar.',
  'inspector.body.unreadable':
    'El cuerpo guardado de esta solicitud está dañado: se conserva tal cual (en la lista de registros que no se pudieron leer) y no se puede mostrar ni volver a enviar.',
  'inspector.request': 'Solicitud: POST {path}',
  'inspector.figures': 'Cifras',
  'inspector.figure.timeToHeaders': 'Tiempo hasta las cabeceras',
  'inspector.figure.timeToFirstToken': 'Tiempo hasta el primer token',
  'inspector.figure.totalDuration': 'Duración total',
  'inspector.figure.outputRate': 'Velocidad de salida',
  'inspector.figure.longestSilence': 'Silencio más largo',
  'inspector.figure.keepalives': 'Keepalives',
  'inspector.figure.events': 'Eventos',
  'inspector.figure.bytes': 'Bytes recibidos',
  'inspector.figure.rate': '{rate} tok/s{counted, select, yes { (deltas contados)} other {}}',
  'inspector.figure.silenceAt': '{silence} en +{at}',
  'inspector.ms': '{ms} ms',
  'inspector.seconds': '{seconds} s',
  'inspector.timeline': 'Línea de tiempo de {items} elementos en {span} ms',
  'inspector.legend.events': 'eventos',
  'inspector.legend.keepalives': 'keepalives',
  'inspector.legend.silence': 'silencio > 1 s',
  'inspector.span': '0 – {span} ms',
  'inspector.events': 'Eventos',
  'inspector.events.search': 'Buscar eventos',
  'inspector.events.placeholder': 'nombre del evento o datos',
  'inspector.events.count': '{shown, number} de {total, number} elementos',
  'inspector.events.at': '+{ms} ms',
  'import.label': 'Importar una grabación',
  'import.file': 'Importar .sse',
  'import.hint': 'o suelta aquí un archivo: se reproduce con el mismo lector, como una respuesta nueva.',
  'import.speed': 'Velocidad de reproducción',
  'import.speed.recorded': 'Velocidad original',
  'import.speed.instant': 'Al instante',
  'import.readError': 'No se pudo leer {name}: {error}',
  'import.replayError': 'No se pudo reproducir {name}: {error}',
  'markdown.copyCode': 'Copiar código',
  'markdown.plainText': 'texto',
  'markdown.image': 'Imagen: {alt}',
  'markdown.image.untitled': 'Imagen: sin título',
  'markdown.task': 'Tarea',
  'systemPrompt.title': 'Prompt del sistema',
  'systemPrompt.field': 'Prompt del sistema de este chat',
  'systemPrompt.useDefault': 'Usar el predeterminado',
  'systemPrompt.note':
    '{which, select, default {El predeterminado para chats nuevos, como en Ajustes.} other {Propio de este chat: el predeterminado para chats nuevos (en Ajustes) es otro.}} {started, select, yes {Se envía con los próximos mensajes de este chat; las respuestas anteriores conservan el que tenían.} other {Este chat empieza con él.}}',
  // The parameters panel
  'params.title': 'Parámetros',
  'params.button.title': 'Parámetros de este chat',
  'params.name':
    '{name, select, temperature {Temperatura} topP {Top P} maxOutputTokens {Máx. de tokens de salida} seed {Semilla} presencePenalty {Penalización por presencia} other {Penalización por frecuencia}}',
  'params.note':
    'Se envían con las solicitudes de este chat en {api}, cada uno en su propio campo. Un campo vacío no envía nada: se aplica el valor predeterminado del modelo.',
  'params.range':
    '{whole, select, yes {{max, select, none {Un número entero de al menos {min, number}.} other {Un número entero de {min, number} a {max, number}.}}} other {{max, select, none {Un número de al menos {min, number}.} other {Un número de {min, number} a {max, number}.}}}}',
  'params.range.any': 'Cualquier número entero.',
  'params.notApplicable': '{api} no tiene este parámetro: no se envía.',
  'params.error.number': '«{value}» no es un número.',
  'params.error.range': '{api} no acepta {value} aquí.',
  'params.error.stops': '{api} admite como máximo {max, number} secuencias de parada.',
  'params.error.thinking':
    '{problem, select, temperature_while_thinking {Mientras razona, Anthropic Messages no admite otra temperatura que 1: vacíala o pon Razonamiento en No.} top_p_while_thinking {Mientras razona, Anthropic Messages solo admite un top P de {min, number} a 1.} other {Mientras razona, Anthropic Messages necesita este valor por encima del presupuesto de razonamiento ({budget, number}), o vacío.}}',
  'params.error.summary': 'No se ha guardado nada: corrige los campos marcados.',
  'params.stop': 'Secuencias de parada',
  'params.stop.item': 'Secuencia de parada {n, number}',
  'params.stop.add': 'Añadir secuencia de parada',
  'params.stop.remove': 'Quitar la secuencia de parada {n, number}',
  'params.cache': 'Guardar la conversación en caché',
  'params.cache.help':
    'Cada turno lee entonces lo anterior de la caché del proveedor, facturado al precio de caché (en Anthropic, escribir en la caché cuesta algo más que la entrada).',
  'params.stop.help':
    'La respuesta termina donde el modelo escribiría una. Escribe \\n para un salto de línea y \\t para un tabulador.',
  'params.stop.max': '{api} admite hasta {max, number}.',
  'params.reset': 'Restablecer',
  'params.reset.title':
    'Volver a los valores predeterminados de los chats nuevos (temperatura y máximo de tokens de salida de Ajustes)',
  'params.settingsHelp':
    'Máx. de tokens de salida y Temperatura son los valores con los que empiezan los chats nuevos; cada chat conserva los suyos, que se cambian en Parámetros, en la barra de herramientas.',
  // Presets
  'presets.title': 'Preajustes',
  'presets.button.title':
    'Preajustes: guarda la configuración de este chat y empieza un chat nuevo desde uno',
  'presets.empty': 'Aún no hay preajustes: guarda abajo la configuración de este chat.',
  'presets.summary':
    '{api} · {model} · Razonamiento: {level, select, off {No} low {Bajo} medium {Medio} other {Alto}}',
  'presets.use': 'Empezar un chat',
  'presets.use.label': 'Empezar un chat desde {name}',
  'presets.delete': 'Eliminar',
  'presets.delete.label': 'Eliminar {name}',
  'presets.save.legend': 'Guardar este chat como preajuste',
  'presets.save.help':
    'Su protocolo, modelo, nivel de razonamiento, prompt del sistema y parámetros. Un nombre ya usado sustituye a ese preajuste.',
  'presets.name': 'Nombre del preajuste',
  'presets.save': 'Guardar preajuste',
  'presets.saved': 'Se guardó «{name}».',
  'presets.nameMissing': 'Ponle un nombre al preajuste.',
  'backup.legend': 'Copia de seguridad y restauración',
  'backup.about':
    'Un archivo con todas las conversaciones, sus respuestas y sus grabaciones, los archivos enviados con los mensajes y los ajustes (nunca la clave de API). Restáuralo aquí o en otro navegador: una conversación que ya esté aquí se une con su copia, sin duplicarse, y una eliminada aquí vuelve.',
  'backup.file': 'Archivo de copia de seguridad',
  'backup.backUp': 'Crear copia',
  'backup.restore': 'Restaurar',
  'backup.busy.backUp': 'Creando la copia…',
  'backup.busy.restore': 'Restaurando {name}…',
  'backup.problems': 'Entradas que no se pudieron leer',
  'backup.problem': '{entry}: {reason}',
  'backup.failed.backUp': 'No se pudo crear la copia de seguridad: {error}',
  'backup.failed.read': 'No se pudo leer {name}: {error}',
  'backup.failed.restore': 'No se pudo restaurar la copia de seguridad: {error}. No se ha cambiado nada.',
  'backup.done':
    'Copia creada con {conversations, plural, one {# conversación} other {# conversaciones}}, {recordings, plural, one {# grabación} other {# grabaciones}}{attachments, plural, =0 {} one {, # adjunto} other {, # adjuntos}} y los ajustes (sin la clave de API) en {name}.{leftOut, plural, =0 {} one { # registro guardado no se pudo leer y no está incluido (sigue en este navegador).} other { # registros guardados no se pudieron leer y no están incluidos (siguen en este navegador).}}{missing, plural, =0 {} one { # adjunto ya no está guardado en este navegador, así que no está incluido.} other { # adjuntos ya no están guardados en este navegador, así que no están incluidos.}}',
  'backup.refusal.not_json':
    'Este archivo no es una copia de seguridad de HopBase Chat: no es JSON. No se ha cambiado nada.',
  'backup.refusal.not_backup':
    'Este archivo no es una copia de seguridad de HopBase Chat. No se ha cambiado nada.',
  'backup.refusal.conversation_file':
    'Este archivo es una conversación exportada como JSON, no una copia de seguridad. No se ha cambiado nada.',
  'backup.refusal.trace_file':
    'Este archivo es una grabación exportada desde el inspector (impórtala allí), no una copia de seguridad. No se ha cambiado nada.',
  'backup.refusal.newer_version':
    'Esta copia de seguridad la hizo una versión más reciente de HopBase Chat (copia versión {version}{withApp, select, yes {, aplicación {app}} other {}}); esta versión lee la versión {reads}. Actualiza la aplicación y vuelve a restaurarla. No se ha cambiado nada.',
  'backup.refusal.no_version':
    'Esta copia de seguridad está dañada: le falta la versión. No se ha cambiado nada.',
  'backup.refusal.no_conversations':
    'Esta copia de seguridad está dañada: no tiene lista de conversaciones. No se ha cambiado nada.',
  'backup.entry.conversation': 'conversación {number}{titled, select, yes { ({title})} other {}}',
  'backup.entry.recording':
    'conversación {number}{titled, select, yes { ({title})} other {}}, grabación del intento {attemptId}',
  'backup.entry.attachment': 'adjunto {number}{named, select, yes { ({name})} other {}}',
  'backup.entry.attachments': 'adjuntos',
  'backup.entry.settings': 'ajustes',
  'backup.entry.setting': 'ajuste {key}',
  'backup.restored':
    'Restaurado: {conversations, plural, one {# conversación} other {# conversaciones}}, {recordings, plural, one {# grabación} other {# grabaciones}}{attachments, plural, =0 {} one {, # adjunto} other {, # adjuntos}}{problems, plural, =0 {} one {; # entrada no se pudo leer} other {; # entradas no se pudieron leer}}.',
  'backup.restored.nothingChanged': '{headline} Ya estaba todo aquí: no ha cambiado nada.',
  'backup.restored.added': '{n, number} nuevas aquí',
  'backup.restored.revived': '{n, number} recuperadas tras eliminarse',
  'backup.restored.joined': '{n, number} unidas con la copia de aquí',
  'backup.restored.unchanged': '{n, number} ya estaban aquí',
  'backup.restored.separator': ', ',
  'backup.gateway.legend': 'La pasarela de la copia',
  'backup.gateway.question':
    'Esta copia llama a su pasarela en {address}; este navegador llama a {current}. La pasarela de aquí no ha cambiado. Elige la de la copia solo si confías en ella: tu clave de API se enviará entonces a {address}.',
  'backup.gateway.keep': 'Mantener {current}',
  'backup.gateway.use': 'Usar {address} y enviar allí mi clave de API',
  'backup.gateway.used': 'La pasarela es ahora {address}.',
  'backup.gateway.kept': 'La pasarela sigue siendo {current}.',
  'backup.gateway.ownServer': 'el propio servidor de esta app',
  'backup.restored.changes':
    '{headline}{withConversations, select, yes { Conversaciones: {conversations}.} other {}}{files, plural, =0 {} other { Adjuntos: # nuevos aquí.}}{settings, select, applied { Ajustes aplicados (la clave de API no cambia).} unchanged { Los ajustes ya eran los de la copia.} other {}}{reload, select, yes { Recarga la página para verlas.} other {}}',
  'markdownExport.replayTitle': 'Reproducción: {file}',
  'markdownExport.untitled': 'Conversación sin título',
  'markdownExport.exported':
    'Exportado de HopBase Chat el {now} · iniciado el {started} · {messages} mensajes · {tokens, number} tokens facturados (todos los intentos){others, plural, =0 {} other { · {others} mensajes de otras versiones omitidos}}',
  'markdownExport.systemPrompt': 'Prompt del sistema',
  'markdownExport.you': 'Tú',
  'markdownExport.empty': '(vacío)',
  'markdownExport.attached': 'Adjuntos: {files}',
  'markdownExport.textFile': 'texto',
  'markdownExport.version': 'versión {position} de {count}',
  'markdownExport.answer': 'Respuesta',
  'markdownExport.replayedFrom': 'reproducida desde {file}',
  'markdownExport.noAttempt': 'No se hizo ningún intento.',
  'markdownExport.failedBeforeOutput': '**Error** antes de cualquier salida: {title} ({details})',
  'markdownExport.stillStreaming': '**Incompleta**: la respuesta seguía generándose al exportar.',
  'markdownExport.unfinished':
    '{status, select, error {**Error**, falló} interrupted {**Incompleta**, interrumpida} other {**Incompleta**, detenida}}: {title}{withDetails, select, yes { ({details})} other {}}. Lo que llegó antes se conserva abajo.',
  'markdownExport.notFinished': 'la respuesta no terminó',
  'markdownExport.cutShort': '**Incompleta**: {title}.',
  'markdownExport.reasoning': 'Razonamiento',
  'markdownExport.refusal': '**Rechazo**: {text}',
  'markdownExport.toolCall': 'Llamada a herramienta: {name} ({id})',
  'markdownExport.argumentsIncomplete': 'Argumentos (incompletos):',
  'markdownExport.noOutput': 'Sin salida.',
  'markdownExport.usage':
    'Uso: {input, number} entrada · {output, number} salida · {total, number} total{reasoning, plural, =0 {{cached, plural, =0 {} other { (# en caché)}}} other { (# de razonamiento{cached, plural, =0 {} other {, {cached, number} en caché}})}}',
  'markdownExport.shownAttempt': 'Se muestra el intento {total} de {total}. Intentos anteriores:',
  'markdownExport.earlierAttempt':
    'Intento {n} de {total}, {time}: {status, select, error {falló} complete {completo} streaming {aún en curso al exportar} interrupted {interrumpido} other {detenido}}{tokens, plural, =0 {} other { tras {tokens, number} tokens de salida}}{withError, select, yes { ({error})} other {}}',
  'markdownExport.toolResult': 'Resultado de herramienta',
  'markdownExport.resultOf': 'Resultado de {id}:',
  // Settings: usage (team mode)
  'usage.legend': 'Uso',
  'usage.help':
    'Tokens que el servidor contó en las respuestas que transmitió, por día (UTC). Los intentos interrumpidos también se facturan.',
  'usage.period': 'Periodo',
  'usage.lastDays': 'Últimos {days, number} días',
  'usage.whose': 'Uso de quién',
  'usage.whose.own': 'El tuyo',
  'usage.whose.everyone': 'Todos',
  'usage.loading': 'Cargando el uso…',
  'usage.empty': 'No hay uso en estos días.',
  'usage.signedOut': 'Has cerrado sesión: vuelve a iniciarla para ver el uso.',
  'usage.failed': 'No se pudo cargar el uso: {reason}',
  'usage.malformed': 'No se pudo cargar el uso: la respuesta del servidor no era la esperada.',
  'usage.caption': '{whose, select, everyone {Uso de todos} other {Tu uso}}, {days} (UTC)',
  'usage.day': 'Día',
  'usage.input': 'Tokens de entrada',
  'usage.output': 'Tokens de salida',
  'usage.cached': 'Tokens en caché',
  'usage.attempts': 'Intentos',
  'usage.interrupted': 'Interrumpidos',
  'usage.total': 'Total',
  // La página de uso (src/components/usage/)
  'usagePage.title': 'Uso y coste',
  'usagePage.help.local':
    'Cada intento que guarda este navegador, también los fallidos, en el día en que empezó. Los tokens de entrada incluyen los de caché; los de salida, los de razonamiento.',
  'usagePage.help.team':
    'Lo que contó el servidor de las respuestas que retransmitió, por día (UTC), con los precios de la tabla: allí no se conocen la cifra propia de la pasarela ni los precios de prompts largos. Los tokens de entrada incluyen los de caché; los de salida, los de razonamiento.',
  'usagePage.groupBy': 'Agrupar',
  'usagePage.group': '{grouping, select, day {Por día} model {Por modelo} other {Por protocolo}}',
  'usagePage.col.key': '{grouping, select, day {Día} model {Modelo} other {Protocolo}}',
  'usagePage.col.input': 'Tokens de entrada',
  'usagePage.col.cached': 'En caché',
  'usagePage.col.output': 'Tokens de salida',
  'usagePage.col.reasoning': 'Razonamiento',
  'usagePage.col.cost': 'Coste',
  'usagePage.caption':
    '{grouping, select, day {Uso por día} model {Uso por modelo} other {Uso por protocolo}}{whose, select, everyone {, de todos} other {}}',
  'usagePage.chart':
    'Gráfico de barras de tokens de entrada, tokens de salida y coste {grouping, select, day {por día} model {por modelo} other {por protocolo}}; la tabla de abajo tiene las mismas cifras.',
  'usagePage.chart.failed': 'No se pudo cargar el gráfico; la tabla de abajo tiene las cifras.',
  'usagePage.csv.cost': 'Coste (USD)',
  'usagePage.csv.note': 'Nota',
  'usagePage.csv.partial': 'al menos: algunos intentos no tienen precio o uso',
  'usagePage.export': 'Exportar CSV',
  'usagePage.empty': 'Todavía no hay uso.',
  // What answers cost (src/components/cost/)
  'cost.figure':
    '{certainty, select, partial {al menos {amount}} other {{amount}}}{gateway, select, all { (cifra de la pasarela)} some { (en parte cifra de la pasarela)} other {}}{attempts, plural, =1 {} other { en # intentos}}',
  'cost.unknown': 'precio desconocido',
  'cost.label': 'Coste: {figure}',
  'cost.breakdown': 'Lo que costó esta respuesta',
  'cost.attempt': 'Intento {n, number} de {count, number}: {status}',
  'cost.col.kind': 'Tokens',
  'cost.col.tokens': 'Cantidad',
  'cost.col.price': 'Por millón',
  'cost.col.amount': 'Coste',
  'cost.line.input': 'Entrada',
  'cost.line.cached': 'Lecturas de caché',
  'cost.line.cacheWrite': 'Escrituras en caché',
  'cost.line.cacheWrite1h': 'Escrituras en caché (1 hora)',
  'cost.line.output': 'Salida',
  'cost.line.reasoning': 'Razonamiento',
  'cost.line.total': 'Total',
  'cost.note.longContext': 'El prompt superó los 200.000 tokens: se aplican los precios de contexto largo.',
  'cost.note.gateway':
    'La pasarela informó ella misma de {amount}, y esa cifra es la que cuenta.{estimate, select, none {} other { La tabla de precios diría {estimate}.}}',
  'cost.note.unpriced': 'No hay precio para {model}: añade uno en Ajustes, en Precios.',
  'cost.note.unmetered': 'El uso nunca se informó: se desconoce lo que costó este intento.',
  'cost.note.none': 'Rechazado antes de empezar: no se facturó nada.',
  'cost.note.sum':
    'El coste de la respuesta es la suma de sus {count, number} intentos: cada uno se facturó.',
  'cost.conversation.title': 'Lo que costó esta conversación, con todos los intentos',
  'cost.inspector': 'Coste',
  'cost.settings.legend': 'Precios',
  'cost.settings.help':
    'Las respuestas se valoran con la tabla del servidor ({count, plural, =0 {ningún modelo} one {# modelo} other {# modelos}}). Añade o cambia precios aquí, en el formato JSON de LiteLLM (dólares por token), por ejemplo: {example}',
  'cost.settings.label': 'Tus precios',
  'cost.settings.read':
    '{count, plural, =0 {Ningún modelo tiene} one {# modelo tiene} other {# modelos tienen}} precio aquí.',
  'cost.settings.skipped':
    '{count, plural, one {Se omitió # entrada} other {Se omitieron # entradas}}: {list}.',
  'cost.settings.skippedEntry':
    '{field, select, none {{model} no es un objeto} other {{model}: {field} es {value}}}',
  'cost.settings.notJson': 'Esto no es JSON ({reason}): se usan los precios del servidor.',
  'cost.settings.notTable':
    'Esto no es un objeto de modelos (formato de LiteLLM): se usan los precios del servidor.',
  'cost.context.label': 'Ventana de contexto',
  'cost.context.fill': '{next, number} de {window, number} tokens ({percent, number, percent})',
  'cost.context.near':
    'La ventana de contexto está casi llena: puede que el próximo mensaje no quepa ({next, number} de {window, number} tokens).',
  'cost.context.over':
    'Este mensaje no cabría en la ventana de contexto del modelo ({next, number} de {window, number} tokens): acórtalo o empieza un chat nuevo.',
};
