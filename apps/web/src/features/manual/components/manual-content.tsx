import { ArrowDownToLine, ArrowUpFromLine, BellRing, CalendarClock, Cpu, Cylinder, Droplets, FileSpreadsheet, Lock, LockKeyhole, Megaphone, MonitorPlay, ShieldCheck, UserPlus } from 'lucide-react';
import {
  ALARM_KIND_LABELS,
  ALARM_PRIORITY_LABELS,
  ALARM_STATE_LABELS,
  COMMAND_STATUS_LABELS,
  GATE_STATES,
  INTERLOCK_LIMITS,
  INTERLOCK_MODE_LABELS,
  REPORT_KIND_LABELS,
  REPORT_LIMITS,
  RECOVERY_CODE_COUNT,
  REPORT_RUN_STATUS_LABELS,
  ROLE_BADGE_NAMES,
  ROLE_DISPLAY_NAMES,
  SCHEDULE_LIMITS,
  SCHEDULE_REASONS,
  SCHEDULE_RUN_STATUS_LABELS,
  scheduleActiveMessage,
  SHELVE_MINUTES,
  topics,
} from '@agua/shared';
import { Button, buttonVariants } from '@/components/ui/button';
import { PermitNotes } from '@/features/interlocks/components/permit-notes';
import { SHORTCUTS } from '@/features/shortcuts/shortcuts';
import { CodeBlock } from './code-block';
import { ManualSites } from './manual-sites';
import { Section } from './manual-section';

// Demo values (docs/protocol.md): the seed sensor and its demo key, against a local server.
const DEVICE_ID = 'esp32_nivel_01';
const DEVICE_KEY = `demo-key-${DEVICE_ID}`;
const SERVER = 'http://127.0.0.1:8080';
const MQTT_HOST = '127.0.0.1';
const MQTT_PORT = 1883;

const LEVEL_MESSAGE = `{ "deviceId": "${DEVICE_ID}", "type": "level_sensor", "data": { "value": 3.42, "unit": "m" } }`;
const GATE_MESSAGE = `{ "deviceId": "esp32_compuerta_01", "type": "motorized_gate", "data": { "value": "abierta" } }`;
const COMPACT_MESSAGE = `{"deviceId":"${DEVICE_ID}","type":"level_sensor","data":{"value":3.42,"unit":"m"}}`;

const CURL_EXAMPLE = `curl -X POST ${SERVER}/api/v1/telemetry \\
  -H 'Content-Type: application/json' \\
  -H 'X-API-Key: ${DEVICE_KEY}' \\
  -d '${COMPACT_MESSAGE}'`;

const MQTT_PUB_EXAMPLE = `mosquitto_pub -h ${MQTT_HOST} -p ${MQTT_PORT} -q 1 \\
  -i ${DEVICE_ID} -u ${DEVICE_ID} -P ${DEVICE_KEY} \\
  -t ${topics.telemetry(DEVICE_ID)} \\
  -m '${COMPACT_MESSAGE}'`;

const MQTT_SUB_EXAMPLE = `mosquitto_sub -h ${MQTT_HOST} -p ${MQTT_PORT} -q 1 \\
  -i ${DEVICE_ID} -u ${DEVICE_ID} -P ${DEVICE_KEY} \\
  -t ${topics.commands(DEVICE_ID)} -t ${topics.errors(DEVICE_ID)} -v`;

const COMMAND_EXAMPLE = `{ "id": "cmd_…", "command": "abrir", "issuedAt": "2026-11-22T10:00:00.000Z", "expiresAt": "2026-11-22T10:00:10.000Z" }`;
const ACK_EXAMPLE = `{ "success": true, "message": "Abriendo", "state": "abriendo" }`;

const HTTP_COMMANDS_EXAMPLE = `# Espera de comandos (long poll, hasta 25 s)
curl '${SERVER}/api/v1/devices/${DEVICE_ID}/commands?wait=25' -H 'X-API-Key: ${DEVICE_KEY}'

# Confirmación de un comando
curl -X POST ${SERVER}/api/v1/devices/${DEVICE_ID}/commands/<commandId>/ack \\
  -H 'Content-Type: application/json' -H 'X-API-Key: ${DEVICE_KEY}' \\
  -d '{"success":true,"message":"Lectura enviada"}'`;


const APPROVAL_MINUTES = INTERLOCK_LIMITS.approvalTimeoutS / 60;

/** What a blocked 'Abrir' looks like on a gate's card: the buttons as pictures (nothing to click) and the real notes under them. */
function BlockedCommandExample() {
  const reason = 'Bloqueado: Sensor Nivel Agua Limpia en nivel alto (4,62 m ≥ 4,25 m)';
  return (
    <figure className="grid max-w-sm gap-2 rounded-lg border bg-background p-3">
      <div className="grid grid-cols-2 gap-2" aria-hidden="true">
        {/* A real disabled button: its faded look is the one on screen (and exempt from contrast, as there). */}
        <Button variant="outline" disabled tabIndex={-1}>
          <ArrowUpFromLine />
          Abrir
        </Button>
        <span className={buttonVariants({ variant: 'outline', className: 'pointer-events-none' })}>
          <ArrowDownToLine />
          Cerrar
        </span>
      </div>
      <PermitNotes
        deviceId="ejemplo"
        permits={[
          {
            command: 'abrir',
            check: undefined,
            blocked: true,
            requires: { comment: false, password: false, approval: false },
            reasons: [{ interlockId: 'ejemplo', name: 'Tanque de agua limpia con sitio', mode: 'block', deviceId: 'esp32_nivel_02', kind: 'level', message: reason }],
            bypassed: [],
          },
        ]}
      />
      <figcaption className="text-xs text-muted-foreground">Ejemplo: «Abrir» bloqueado en la tarjeta de una compuerta; «Cerrar» sigue disponible.</figcaption>
    </figure>
  );
}

/** The administrator's manual: users, roles, the water figures, alarms and connecting ESP32 devices (the real protocol). */
export function ManualContent() {
  return (
    <div className="grid gap-6">
      <Section id="manual-usuarios" icon={UserPlus} title="Gestión de Usuarios">
        <p>
          Los administradores crean y mantienen las cuentas desde la sección <strong>Usuarios</strong>. Para crear un nuevo usuario se
          necesita:
        </p>
        <ul>
          <li>nombre completo,</li>
          <li>correo electrónico,</li>
          <li>una contraseña temporal (al menos 10 caracteres, distinta del nombre de usuario),</li>
          <li>y un rol.</li>
        </ul>
        <p>
          En su primer acceso el usuario debe cambiar la contraseña temporal. Desactivar un usuario, cambiar su rol o restablecer su
          contraseña cierra sus sesiones abiertas de inmediato. Cada acceso, comando y cambio queda registrado en la{' '}
          <strong>Auditoría</strong>.
        </p>
      </Section>

      <Section id="manual-roles" icon={ShieldCheck} title="Roles y permisos">
        <ul>
          <li>
            <strong>{ROLE_DISPLAY_NAMES.admin}</strong>: tiene acceso total al sistema: ve los datos, envía comandos, gestiona usuarios
            y dispositivos.
          </li>
          <li>
            <strong>{ROLE_DISPLAY_NAMES.operator}</strong>: ve los datos y envía comandos a los dispositivos, pero no puede gestionar
            usuarios ni dispositivos.
          </li>
          <li>
            <strong>{ROLE_DISPLAY_NAMES.viewer}</strong>: solo visualiza los datos.
          </li>
        </ul>
      </Section>

      <Section id="manual-dos-pasos" icon={LockKeyhole} title="Verificación en dos pasos y sesiones">
        <p>
          Cada usuario puede proteger su cuenta con un segundo paso: además de la contraseña, un código de 6 dígitos que una aplicación de
          autenticación del teléfono (Google Authenticator, Microsoft Authenticator, FreeOTP, Aegis…) cambia cada 30 segundos. Se gestiona
          en <strong>Seguridad de la cuenta</strong>, al pie del menú.
        </p>
        <h3>Activarla</h3>
        <ol>
          <li>
            En <strong>Seguridad de la cuenta</strong>, pulse <strong>Activar</strong>.
          </li>
          <li>Escanee el código QR con la aplicación (o escriba a mano la clave que aparece debajo, en grupos de cuatro).</li>
          <li>
            Escriba el código que muestra la aplicación y pulse <strong>Activar verificación</strong>.
          </li>
          <li>
            Guarde los {RECOVERY_CODE_COUNT} <strong>códigos de recuperación</strong> con <strong>Copiar</strong> o{' '}
            <strong>Descargar</strong>: solo se muestran esa vez.
          </li>
        </ol>
        <p>
          Desde entonces, al iniciar sesión se pide el <strong>Código de verificación</strong> después de la contraseña. Un código vale una
          sola vez: si acaba de usarlo, espere al siguiente.
        </p>
        <h3>Códigos de recuperación</h3>
        <p>
          Sin el teléfono a mano, pulse <strong>Usar un código de recuperación</strong> en la pantalla de inicio de sesión y escriba uno de
          los códigos guardados. Cada código sirve una sola vez y su uso queda en la <strong>Auditoría</strong>. Guárdelos fuera del
          teléfono.
        </p>
        <h3>Teléfono perdido</h3>
        <p>
          Quien pierda el teléfono y los códigos pide ayuda a un administrador: en <strong>Usuarios</strong>, el botón{' '}
          <strong>Restablecer verificación en dos pasos</strong> de su fila la desactiva, borra sus códigos y cierra sus sesiones abiertas.
          El usuario vuelve a entrar con su contraseña y la activa de nuevo con el teléfono nuevo.
        </p>
        <h3>Exigirla por rol</h3>
        <p>
          En <strong>Usuarios</strong>, el bloque <strong>Exigir verificación en dos pasos a los roles</strong> la hace obligatoria para{' '}
          {ROLE_BADGE_NAMES.admin}, {ROLE_BADGE_NAMES.operator} u {ROLE_BADGE_NAMES.viewer}. Quien tenga un rol marcado y no la haya activado
          solo ve <strong>Seguridad de la cuenta</strong> en su siguiente inicio de sesión, hasta activarla; no puede desactivarla mientras su
          rol la exija. La lista de usuarios dice de cada uno si la tiene <strong>Activada</strong>, <strong>Desactivada</strong> o{' '}
          <strong>Pendiente de activar</strong>.
        </p>
        <h3>Cerrar sesiones</h3>
        <p>
          <strong>Sesiones</strong>, en la misma pantalla, lista los navegadores con la sesión iniciada (inicio, última actividad, dirección
          y navegador; la suya lleva <strong>Esta sesión</strong>). <strong>Cerrar sesión</strong> en otra la termina al instante, por
          ejemplo la de un ordenador compartido o un teléfono perdido; en la suya, sale del sistema en este navegador.
        </p>
      </Section>

      <Section id="manual-agua" icon={Cylinder} title="Volumen, caudal y tiempo hasta el desborde">
        <p>
          Un sensor de nivel cuya forma está descrita (<strong>Dispositivos</strong>, botón <strong>Geometría y calibración</strong>)
          muestra en su tarjeta del Dashboard y en su Panel de Control el agua que hay, además del nivel:
        </p>
        <ul>
          <li>
            el <strong>volumen</strong> (por ejemplo <code>123,4 m³</code>) y el <strong>llenado</strong>: el porcentaje del volumen de
            referencia, que es el volumen hasta el vertedero o, si no hay vertedero, hasta el nivel máximo;
          </li>
          <li>
            el <strong>caudal neto</strong>: <code>Entrada neta +18,2 m³/h</code> cuando el volumen sube, <code>Salida neta −12,0 m³/h</code>{' '}
            cuando baja, o <code>Estable</code> cuando cambia menos del 1 % del volumen total por hora. Es lo que entra menos lo que sale,
            calculado con la tendencia de las lecturas de los últimos minutos (la <em>ventana de caudal</em>, 5 minutos por defecto);
          </li>
          <li>
            <strong>Desborde en ≈ 2 h 10 min</strong>: el tiempo aproximado hasta que el agua llegue al vertedero (o al nivel máximo) si
            sigue entrando al ritmo actual. Es una previsión, no una promesa: cambia en cuanto cambia el caudal. Con menos de un minuto
            dice <code>Desborde en &lt; 1 min</code>, y <code>Nivel de desborde alcanzado</code> cuando el agua ya está ahí. Mientras el
            volumen baja se muestra, del mismo modo, <strong>Vacío en ≈ …</strong>.
          </li>
        </ul>
        <p>La previsión no aparece, a propósito, cuando no hay base para hacerla:</p>
        <ul>
          <li>el caudal es <code>Estable</code> (ni sube ni baja lo bastante);</li>
          <li>hay menos de tres lecturas en la ventana de caudal o cubren menos de la mitad de ella (por ejemplo, justo tras conectar);</li>
          <li>
            la última lectura es más antigua que el tiempo de desconexión del equipo, o el equipo está desconectado: el volumen se muestra
            como <code>—</code> y no hay caudal ni previsión, porque el agua puede haber cambiado sin que lo sepamos;
          </li>
          <li>las lecturas marcadas como falla no cuentan; un sensor sin forma descrita no muestra ninguna de estas cifras.</li>
        </ul>
        <p>
          En <strong>Dispositivos</strong>, el detalle de un sensor con forma muestra la tendencia del volumen junto a la del nivel, en el
          mismo rango, con la línea discontinua del volumen de referencia (<em>Vertedero</em> o <em>Volumen útil</em>). Las previsiones no
          sustituyen a las alarmas de nivel: son las alarmas las que avisan.
        </p>
      </Section>

      <ManualSites />

      <Section id="manual-alarmas" icon={BellRing} title="Alarmas">
        <p>
          Cada dispositivo tiene reglas de alarma (nivel muy alto, alto, bajo y muy bajo, subida rápida, equipo sin señal, falla de
          compuerta y comando fallido) con una prioridad: <strong>{ALARM_PRIORITY_LABELS[1]}</strong>, <strong>{ALARM_PRIORITY_LABELS[2]}</strong>,{' '}
          <strong>{ALARM_PRIORITY_LABELS[3]}</strong> o <strong>{ALARM_PRIORITY_LABELS[4]}</strong>. Las alarmas siguen la norma ISA-18.2:
        </p>
        <ul>
          <li>
            <strong>{ALARM_STATE_LABELS.unack}</strong>: la condición se cumple y nadie la ha reconocido; destaca en la lista y cuenta en el
            aviso de la cabecera.
          </li>
          <li>
            <strong>{ALARM_STATE_LABELS.ack}</strong>: alguien la vio; terminará sola cuando la condición desaparezca.
          </li>
          <li>
            <strong>{ALARM_STATE_LABELS.rtn_unack}</strong>: la condición ya no se cumple, pero nadie la reconoció; al reconocerla
            termina.
          </li>
          <li>
            <strong>{ALARM_STATE_LABELS.shelved}</strong>: oculta a propósito durante {SHELVE_MINUTES.min} a {SHELVE_MINUTES.max} minutos
            (con un motivo); no suena ni se notifica. Se lista aparte, en <strong>Suspendidas</strong>, con quién la suspendió y hasta
            cuándo; al vencer, si la condición sigue, vuelve sin reconocer. <strong>Reactivar</strong> la devuelve antes.
          </li>
          <li>
            <strong>{ALARM_STATE_LABELS.cleared}</strong> y <strong>{ALARM_STATE_LABELS.suppressed}</strong> (dispositivo o regla
            deshabilitados) solo aparecen en el historial.
          </li>
        </ul>
        <p>
          En <strong>Alarmas</strong>, quien tiene permiso de escritura pulsa <strong>Reconocer</strong> o <strong>Reconocer todas</strong>,
          con un comentario opcional, o <strong>Suspender</strong>. Suspender una alarma {ALARM_PRIORITY_LABELS[1]} pide una segunda
          confirmación, y el servidor puede reservarlo a los administradores (<code>ALARM_SHELVE_CRITICAL=admin</code>): entonces, para
          los demás, 'Suspender' aparece desactivado en esas alarmas. Para que una alarma no oscile, un nivel alto solo se normaliza cuando
          baja por debajo del punto de ajuste menos la banda muerta (2 % por defecto); los retardos de activación y de normalización
          evitan avisos por picos breves. Todo reconocimiento y suspensión queda en la Auditoría, y el historial se exporta a Excel.
        </p>
        <p>
          Las reglas de cada dispositivo (activada, prioridad, punto de ajuste, banda muerta y retardos) se cambian en{' '}
          <strong>Dispositivos</strong>, botón <strong>Reglas de alarma</strong>, con permiso para gestionar dispositivos. El punto de
          ajuste de un nivel se da en % del nivel máximo o en metros; en metros no se mueve al cambiar los umbrales del equipo. Los
          sensores de nivel con vertedero tienen además <strong>{ALARM_KIND_LABELS.time_to_overflow}</strong> (el desborde previsto
          llega antes de los minutos indicados, 60 por defecto) y <strong>{ALARM_KIND_LABELS.level_above_crest}</strong> (un
          desbordamiento en curso), ambas {ALARM_PRIORITY_LABELS[1]}: se activan solas al darle al equipo su primer vertedero y se
          desactivan al quitárselo. Los sensores de agua limpia vigilan también el nivel bajo y muy bajo. El botón{' '}
          <strong>Sonido de alarmas</strong> de la cabecera (el altavoz, en todas las pantallas) lo activa o silencia; está apagado
          hasta que se activa y se recuerda en cada navegador. Con el sonido activado, una alarma nueva {ALARM_PRIORITY_LABELS[1]} o{' '}
          {ALARM_PRIORITY_LABELS[2]} sin reconocer suena con un pitido breve, repetido cada 15 s hasta que alguien la reconoce.
        </p>
      </Section>

      <Section id="manual-enclavamientos" icon={Lock} title="Comandos protegidos por enclavamientos">
        <p>
          Un <strong>enclavamiento</strong> es una condición que el servidor comprueba antes de enviar un comando a un dispositivo: por
          ejemplo, no abrir la compuerta de entrada mientras el tanque de agua limpia esté lleno. Si todas sus condiciones se cumplen, el
          comando sale como siempre. Si alguna no se cumple, pasa lo que diga su modo. Los botones de la compuerta (en el Dashboard y en el
          Panel de Control de <strong>Dispositivos</strong>) lo dicen antes de pulsar, con el motivo escrito debajo, y el servidor lo
          vuelve a comprobar al enviar: si algo cambió entre tanto, la confirmación muestra su respuesta sin perder lo escrito.
        </p>
        <h3>Comando bloqueado ({INTERLOCK_MODE_LABELS.block})</h3>
        <p>El botón aparece desactivado y debajo se lee por qué, por ejemplo:</p>
        <BlockedCommandExample />
        <p>Qué hacer:</p>
        <ul>
          <li>
            <strong>Corregir la condición</strong>: esperar a que el nivel baje, volver a conectar el equipo, cerrar la otra compuerta…
            El botón se activa solo en cuanto la condición se cumple, sin recargar la página.
          </li>
          <li>
            Si hay que maniobrar igualmente, <strong>pedir a un supervisor</strong> (un administrador) que anule el enclavamiento durante
            un tiempo limitado y con un motivo (ver más abajo).
          </li>
          <li>
            <strong>Detener</strong> nunca se bloquea: detener una compuerta es siempre el acto seguro.
          </li>
        </ul>
        <h3>Comando con condiciones</h3>
        <p>Los otros modos no impiden el comando: piden algo más en su confirmación, que lista los motivos.</p>
        <ul>
          <li>
            <strong>{INTERLOCK_MODE_LABELS.confirm}</strong>: escriba un <strong>Comentario</strong> con el porqué de la maniobra. Es
            obligatorio y queda con el comando en la Auditoría y en los últimos comandos del dispositivo.
          </li>
          <li>
            <strong>{INTERLOCK_MODE_LABELS.reauth}</strong>: escriba su propia <strong>Contraseña</strong> de acceso para confirmar que es
            usted. Si se equivoca, la confirmación dice <em>Contraseña incorrecta.</em> y conserva el comentario; cada error cuenta como un
            intento fallido de acceso, y tras varios hay que esperar.
          </li>
          <li>
            <strong>{INTERLOCK_MODE_LABELS.two_person}</strong>: el comando no se envía todavía. Queda{' '}
            <strong>{COMMAND_STATUS_LABELS.awaiting_approval}</strong> hasta {APPROVAL_MINUTES} minutos en el recuadro{' '}
            <strong>Aprobación pendiente</strong>, arriba de todas las pantallas de quienes pueden enviar comandos, con el dispositivo, el
            comando, quién lo pidió, su comentario y el tiempo que queda. Otra persona pulsa <strong>Aprobar</strong> (entonces se envía) o{' '}
            <strong>Rechazar</strong>; quien lo pidió solo puede rechazarlo. Al aprobar, el servidor vuelve a comprobar el dispositivo: si
            ahora está bloqueado o desconectado, la aprobación se rechaza con sus motivos y el comando sigue esperando. Pasado el tiempo
            queda <strong>{COMMAND_STATUS_LABELS.expired}</strong>; un comando posterior al mismo dispositivo lo reemplaza.
          </li>
        </ul>
        <h3>Enclavamiento anulado</h3>
        <p>
          Mientras un enclavamiento está anulado, todas las pantallas muestran arriba el aviso{' '}
          <strong>Enclavamiento anulado hasta HH:MM</strong> (hora de la instalación), con su nombre, el dispositivo y el comando, quién
          lo anuló y por qué. Durante ese tiempo el comando se envía aunque sus condiciones no se cumplan: la protección la pone usted.
          La anulación termina sola a esa hora (el aviso desaparece) o antes, si un administrador pulsa{' '}
          <strong>Terminar anulación</strong>.
        </p>
        <h3>Definir enclavamientos (administradores)</h3>
        <p>
          La pantalla <strong>Enclavamientos</strong> los lista por dispositivo y comando, con su modo, si están activos, sus condiciones
          en palabras y su anulación. <strong>Nuevo enclavamiento</strong> pide el dispositivo y el comando (nunca «Detener»), un
          nombre, el modo, si está activo y de {INTERLOCK_LIMITS.conditionsMin} a {INTERLOCK_LIMITS.conditionsMax} condiciones, que deben
          cumplirse todas: <strong>Nivel</strong> de un sensor (en metros o en % de su nivel máximo, con una lectura reciente),{' '}
          <strong>Sin alarma activa</strong> (de un tipo o prioridad), <strong>Estado de compuerta</strong> (los estados en los que se
          cumple) y <strong>En línea</strong>. <strong>Probar con los valores actuales</strong> muestra lo que un comando encontraría
          ahora. <strong>Anular</strong> pide los minutos ({INTERLOCK_LIMITS.bypassMinutesMin} a {INTERLOCK_LIMITS.bypassMinutesMax}) y
          un comentario obligatorio. Todo queda en la Auditoría. Estos enclavamientos son de supervisión: no sustituyen a las
          protecciones del propio equipo (finales de carrera, el PLC o el firmware), que actúan aunque el servidor no esté.
        </p>
      </Section>

      <Section id="manual-programacion" icon={CalendarClock} title="Programación de compuertas">
        <p>
          Una <strong>programación</strong> abre o cierra una compuerta a una hora, los días de la semana elegidos. Una apertura puede
          llevar una duración (de {SCHEDULE_LIMITS.durationMinMin} a {SCHEDULE_LIMITS.durationMinMax} minutos): pasado ese tiempo el
          sistema vuelve a cerrar la compuerta (<em>cierre tras duración</em>). Las horas son siempre las de la instalación, no las del
          navegador; la sección lo indica. Se ven en <strong>Dispositivos</strong>, eligiendo una compuerta, sección{' '}
          <strong>Programación</strong>: el nombre, qué hace y cuándo, si está activa, la próxima ejecución y si se ejecutaría ahora
          (<strong>Se ejecutará</strong> o <strong>Se omitirá</strong> con el motivo). Todos los usuarios la ven; solo los administradores
          crean, editan, desactivan o eliminan programaciones. Al guardar, el formulario muestra las 10 próximas ejecuciones con su cierre.
        </p>
        <p>
          La programación envía su comando por el mismo camino que una persona, con los mismos enclavamientos. Pero no puede escribir un
          comentario, dar una contraseña ni esperar una aprobación: si algún enclavamiento no se cumple, o la compuerta está desconectada,
          deshabilitada o con otro comando en curso, esa ejecución no se hace.
        </p>
        <h3>Ejecuciones omitidas y perdidas</h3>
        <ul>
          <li>
            <strong>{SCHEDULE_RUN_STATUS_LABELS.skipped}</strong>: llegó la hora, pero el comando no podía salir; el historial dice por
            qué (por ejemplo, «El dispositivo no está en línea.»).
          </li>
          <li>
            <strong>{SCHEDULE_RUN_STATUS_LABELS.missed}</strong>: «{SCHEDULE_REASONS.MISSED}» Una ejecución que debía hacerse hace como
            mucho {SCHEDULE_LIMITS.catchUpMs / 60_000} minutos se hace al arrancar; las más antiguas quedan perdidas. Un cierre tras
            duración nunca se pierde: se hace al arrancar aunque llegue tarde, porque una compuerta abierta no es el estado seguro.
          </li>
        </ul>
        <p>
          Las dos levantan la alarma <strong>{ALARM_KIND_LABELS.schedule_skipped}</strong> en la compuerta, con la prioridad elegida en la
          programación ({ALARM_PRIORITY_LABELS[3]} si no se cambia). Revise el motivo y, si hace falta, maniobre a mano. Cada programación
          tiene su historial en <strong>Últimas ejecuciones</strong>: la hora prevista, si fue la hora programada o el cierre tras duración,
          el resultado ({SCHEDULE_RUN_STATUS_LABELS.issued}, {SCHEDULE_RUN_STATUS_LABELS.pending}, {SCHEDULE_RUN_STATUS_LABELS.cancelled}…)
          y el comando enviado. Mientras falta un cierre se lee «Cierre previsto a las 06:30».
        </p>
        <h3>Tomar control manual</h3>
        <p>
          Entre la apertura de una programación con duración y su cierre previsto, la compuerta sigue la programación. Si una persona
          pulsa Abrir o Cerrar en ese tiempo, el servidor no envía el comando y responde, por ejemplo:{' '}
          <em>{scheduleActiveMessage('Abrir 06:00', '06:30')}</em> Para maniobrar igualmente hay que confirmarlo con{' '}
          <strong>Tomar control manual</strong>: el comando sale y el cierre previsto se cancela, con el nombre de quien lo hizo en la
          Auditoría. <strong>Detener</strong> lo cancela también, igual que desactivar o eliminar la programación.
        </p>
        <p>
          En el cambio de hora de primavera, una hora que no existe (02:30) se ejecuta en el primer minuto después del salto (03:00); en el
          de otoño, una hora que se repite se ejecuta una sola vez.
        </p>
      </Section>

      <Section id="manual-desbordamientos" icon={Droplets} title="Desbordamientos">
        <p>
          La pantalla <strong>Desbordamientos</strong> (en el menú de todos los roles) lista cada vertido de un sensor de nivel con
          vertedero: empieza cuando el nivel se mantiene en el vertedero o por encima el tiempo de activación, y termina cuando se
          mantiene por debajo (menos la banda muerta) el tiempo de normalización. De cada uno muestra el inicio, el fin (o{' '}
          <strong>En curso</strong>, resaltado, mientras sigue vertiendo), la duración, el nivel máximo, el volumen vertido (calculado
          por vertedero; '—' si el equipo no tiene vertedero configurado, nunca 0 m³), la causa, si se comunicó a la autoridad y el
          dispositivo. La lista se actualiza sola: un vertido nuevo aparece y uno en curso se cierra sin recargar la página.
        </p>
        <p>
          Arriba se filtra por dispositivo y por periodo, con los totales del filtro: desbordamientos, vertidos 12/24, duración y
          volumen. El número grande es el recuento 12/24 del año natural en curso, el que suele pedir la autoridad.
        </p>
        <p>
          <strong>La regla 12/24</strong> (de la Agencia de Medio Ambiente del Reino Unido) no cuenta cada subida del nivel: desde que
          empieza un vertido, las primeras 12 horas cuentan como uno; después, cada bloque de 24 horas en el que haya habido vertido
          cuenta uno más; y tras un bloque de 24 horas sin vertido, el siguiente vertido empieza una cuenta nueva. Así, una tormenta
          con varios picos seguidos cuenta poco, y muchos días con vertidos cuentan mucho. Se calcula por dispositivo y se suma.
        </p>
        <p>
          Quien tiene permiso de escritura pulsa <strong>Editar</strong> en un evento para anotar la causa (hasta 200 caracteres), unas
          notas (hasta 2000) y la fecha y hora en que se comunicó a la autoridad (<strong>Comunicado a la autoridad</strong>; no puede
          ser futura, y vacía significa que aún no se ha comunicado). Cada cambio queda en la Auditoría. Los observadores solo lo ven.
        </p>
      </Section>

      <Section id="manual-informes" icon={FileSpreadsheet} title="Informes">
        <p>
          La pantalla <strong>Informes</strong> (en el menú de todos los roles) reúne los informes definidos y sus ejecuciones. Hay
          cuatro tipos: <strong>{REPORT_KIND_LABELS.daily}</strong> (un día), <strong>{REPORT_KIND_LABELS.weekly}</strong> (de lunes a
          domingo), <strong>{REPORT_KIND_LABELS.monthly}</strong> (un mes natural) y <strong>{REPORT_KIND_LABELS.overflows}</strong> (los
          vertidos de un mes natural). Cada informe se genera en Excel, en PDF o en ambos.
        </p>
        <h3>Generar un informe y descargarlo (operadores y administradores)</h3>
        <ol>
          <li>
            Pulse <strong>Generar ahora</strong> en el informe. El periodo viene ya relleno con el último completo: ayer para el
            diario, la semana pasada (de lunes a domingo) para el semanal y el mes anterior para el mensual y el de desbordamientos.
          </li>
          <li>
            Cambie <strong>Desde</strong> y <strong>Hasta</strong> si quiere otro periodo: ambos días se incluyen (para un solo día,
            ponga el mismo en los dos), hasta {REPORT_LIMITS.periodDaysMax} días.
          </li>
          <li>
            Marque <strong>Enviar a los destinatarios</strong> si además debe llegarles por correo, y pulse <strong>Generar</strong>.
          </li>
          <li>
            La ejecución aparece arriba de la lista <strong>Ejecuciones</strong> como <strong>{REPORT_RUN_STATUS_LABELS.queued}</strong>,
            pasa a <strong>{REPORT_RUN_STATUS_LABELS.running}</strong> y termina en <strong>{REPORT_RUN_STATUS_LABELS.done}</strong> (o{' '}
            <strong>{REPORT_RUN_STATUS_LABELS.failed}</strong>, con el motivo) sin recargar la página. Cuando está lista, los botones{' '}
            <strong>Excel</strong> y <strong>PDF</strong> descargan cada archivo.
          </li>
        </ol>
        <p>
          Junto a cada archivo se ve su tamaño y el comienzo de su huella SHA-256 (la huella completa aparece al pasar el ratón por
          encima): sirve para comprobar que un archivo enviado o archivado es exactamente el que generó el sistema. La lista se puede
          filtrar por informe y muestra quién pidió cada ejecución (<strong>Programado</strong> cuando la generó la programación). Los
          observadores ven y descargan los informes, pero no los generan.
        </p>
        <h3>Programar un informe (administradores)</h3>
        <p>
          Pulse <strong>Nuevo informe</strong> (o <strong>Editar</strong> en uno existente) y rellene: el <strong>Nombre</strong>, el{' '}
          <strong>Tipo</strong>, los <strong>Dispositivos</strong> (todos, también los que se den de alta después, o los que elija),
          los <strong>Formatos</strong> (al menos uno), los <strong>Destinatarios</strong> (usuarios del sistema y otras direcciones de
          correo, una por línea o separadas por comas; hasta {REPORT_LIMITS.recipientsMax}) y la <strong>Programación</strong>:{' '}
          <strong>Solo bajo demanda</strong>, o <strong>Programado</strong> a una hora (en la hora del servidor), además del día de la
          semana para el semanal o del día del mes (del 1 al 28) para el mensual y el de desbordamientos. La programación genera
          siempre el último periodo completo y lo envía a los destinatarios; por ejemplo, un mensual el día 1 a las 07:00 genera y envía
          el mes anterior. Si el servidor estuvo parado a esa hora, al arrancar genera los periodos que faltan (los{' '}
          {REPORT_LIMITS.catchUpPeriods} más recientes como mucho).
        </p>
        <p>
          El interruptor <strong>Activo</strong> pausa la programación sin borrar el informe (la lista lo muestra como{' '}
          <strong>Pausado</strong>). <strong>Eliminar</strong> pide confirmación y no se puede deshacer; las ejecuciones ya
          generadas y sus archivos se conservan.
        </p>
      </Section>

      <Section id="manual-notificaciones" icon={Megaphone} title="Notificaciones">
        <p>
          Las alarmas avisan también fuera de la pantalla: por <strong>correo</strong>, por <strong>webhook</strong> (Slack, Telegram u
          otro sistema) y con <strong>notificaciones push</strong> en navegadores y teléfonos. El servidor necesita{' '}
          <code>PUBLIC_URL</code> (la dirección con la que se abre el sistema, para los enlaces) y, para el correo, <code>SMTP_URL</code>{' '}
          y <code>SMTP_FROM</code>.
        </p>
        <ul>
          <li>
            Cada persona elige en <strong>Mis notificaciones</strong> qué prioridades le llegan por correo y por push (por defecto{' '}
            {ALARM_PRIORITY_LABELS[1]} y {ALARM_PRIORITY_LABELS[2]}) y activa el push en cada navegador; la app se puede instalar en el
            teléfono desde el menú del navegador.
          </li>
          <li>
            En <strong>Notificaciones</strong> el administrador da de alta webhooks (el secreto de firma se muestra una sola vez),
            define la escalada (a quién avisar si una alarma sigue sin reconocer tras unos minutos, y cada cuánto repetir) y consulta el
            registro de envíos, con los intentos y el último error de cada uno.
          </li>
          <li>
            Quien recibió una alarma recibe también su <strong>Normalizada</strong>. Un envío que falla se reintenta durante 24 horas;
            nada se pierde si el servidor se reinicia.
          </li>
        </ul>
        <p>
          Cada webhook lleva la cabecera <code>X-Agua-Signature: sha256=…</code>, el HMAC-SHA256 del cuerpo con el secreto: el receptor
          la calcula y compara antes de fiarse del aviso. <code>X-Agua-Delivery</code> identifica cada envío (un reintento repite el
          mismo).
        </p>
      </Section>

      <Section id="manual-sala" icon={MonitorPlay} title="Sala de control y atajos de teclado">
        <p>
          <strong>Sala de control</strong> (botón en el Dashboard, o la tecla <kbd>S</kbd>) es una vista a pantalla completa para la
          pared de la sala: sin menú, con cifras grandes, los dispositivos anormales primero y las alarmas activas o sin reconocer al
          lado. Con <kbd>↑</kbd> y <kbd>↓</kbd> se elige una alarma y <kbd>R</kbd> abre su reconocimiento. <strong>Salir</strong>{' '}
          vuelve al Dashboard.
        </p>
        <p>Atajos en cualquier pantalla (salvo mientras se escribe en un campo):</p>
        <ul>
          {SHORTCUTS.map((s) => (
            <li key={s.key}>
              <kbd>{s.keyLabel}</kbd>: {s.description}
            </li>
          ))}
        </ul>
        <p>
          El panel nunca da por bueno lo que no sabe: sin datos en vivo la cabecera dice <strong>Sin datos en tiempo real</strong> o{' '}
          <strong>Sin conexión</strong>, las cifras que no se pueden confirmar se muestran como <strong>—</strong> en gris, y un nivel
          más antiguo que el tiempo de desconexión de su equipo se muestra como <strong>—</strong> con su último valor debajo.
        </p>
      </Section>

      <Section id="manual-esp32" icon={Cpu} title="Conexión de dispositivos ESP32">
        <p>
          Cada dispositivo tiene un identificador (p. ej. <code>{DEVICE_ID}</code>), un tipo (<code>level_sensor</code> o{' '}
          <code>motorized_gate</code>) y una clave API que se muestra una sola vez al crearlo o al renovarla. En modo demostración la
          clave de cada dispositivo es <code>demo-key-&lt;id&gt;</code>.
        </p>

        <h3>Formato del mensaje</h3>
        <p>
          Los dos transportes usan el mismo mensaje JSON con <code>deviceId</code>, <code>type</code> y <code>data</code>, que contiene{' '}
          <code>value</code> y <code>unit</code>:
        </p>
        <CodeBlock label="Mensaje de un sensor de nivel" code={LEVEL_MESSAGE} />
        <CodeBlock label="Mensaje de una compuerta" code={GATE_MESSAGE} />
        <ul>
          <li>
            Sensor de nivel: <code>value</code> es un número en metros; <code>unit</code> puede omitirse (es <code>m</code>).
          </li>
          <li>
            Compuerta: <code>value</code> es uno de {GATE_STATES.map((s, i) => <span key={s}>{i > 0 ? ', ' : ''}<code>{s}</code></span>)}.
          </li>
          <li>
            Campos opcionales: <code>ts</code> (hora de la medición, ISO 8601 con zona horaria o milisegundos Unix), <code>seq</code>{' '}
            (entero que el dispositivo incrementa) y <code>boot</code> (texto corto elegido al azar en cada arranque); con{' '}
            <code>seq</code> y <code>boot</code> un reenvío no se guarda dos veces.
          </li>
          <li>Se puede enviar un mensaje o un lote (array) de hasta 500 mensajes, por ejemplo lecturas guardadas sin conexión.</li>
        </ul>

        <h3>Clave API</h3>
        <p>
          La clave se envía en la cabecera de la solicitud <code>X-API-Key: &lt;clave&gt;</code> (o{' '}
          <code>Authorization: Bearer &lt;clave&gt;</code>). En MQTT la clave es la contraseña de la conexión.
        </p>

        <h3>HTTP</h3>
        <p>
          Envíe las lecturas con <code>POST /api/v1/telemetry</code>. La respuesta <code>202</code> confirma que se guardaron e
          incluye los comandos pendientes del dispositivo.
        </p>
        <CodeBlock label="Envío de una lectura por HTTP con curl" code={CURL_EXAMPLE} />
        <p>Un dispositivo que solo usa HTTP recibe comandos esperándolos (long poll) y los confirma así:</p>
        <CodeBlock label="Comandos por HTTP" code={HTTP_COMMANDS_EXAMPLE} />

        <h3>MQTT</h3>
        <p>
          Conéctese al broker (puerto {MQTT_PORT}) con el id del dispositivo como identificador de cliente y como usuario, y la clave API
          como contraseña. Publique la telemetría con QoS 1 en <code>{topics.telemetry('{id}')}</code>; el PUBACK significa que la
          lectura se guardó.
        </p>
        <CodeBlock label="Publicación de una lectura por MQTT con mosquitto_pub" code={MQTT_PUB_EXAMPLE} />
        <p>
          Nota: el identificador de cliente es el del dispositivo; si el dispositivo (o el simulador) ya está conectado, esta conexión
          lo reemplaza.
        </p>

        <h3>Comandos y confirmaciones</h3>
        <p>
          Suscríbase a <code>{topics.commands('{id}')}</code> (QoS 1) para recibir comandos y a <code>{topics.errors('{id}')}</code> para
          conocer los mensajes rechazados. Las compuertas aceptan <code>abrir</code>, <code>cerrar</code> y <code>detener</code>; los
          sensores, <code>read</code> y <code>restart</code>.
        </p>
        <CodeBlock label="Suscripción a comandos con mosquitto_sub" code={MQTT_SUB_EXAMPLE} />
        <CodeBlock label="Comando recibido" code={COMMAND_EXAMPLE} />
        <p>
          Ejecute cada comando una sola vez, ignore los que hayan expirado (<code>expiresAt</code>) y confírmelo en{' '}
          <code>{topics.commandAck('{id}')}</code> en menos de 10 segundos:
        </p>
        <CodeBlock label="Confirmación de un comando" code={ACK_EXAMPLE} />

        <h3>Estado en línea y última voluntad</h3>
        <p>
          Configure la última voluntad (last will) en <code>{topics.status('{id}')}</code> con el contenido <code>offline</code> y
          retenido, y publique <code>online</code> (retenido) al conectarse. Así el panel muestra el dispositivo como desconectado al
          instante si pierde la conexión. Sin MQTT, un dispositivo se considera en línea mientras envía datos (por defecto, si se le oyó
          en los últimos 15 segundos).
        </p>
        <p>
          Un dispositivo solo puede publicar en sus propios temas <code>telemetry</code>, <code>commands/ack</code> y{' '}
          <code>status</code>, y solo puede usar retención en <code>status</code>: cualquier otra publicación cierra su conexión.
          Al renovar la clave, desconectar, retirar o purgar un dispositivo se borran sus mensajes retenidos.
        </p>

        <h3>Firmware de referencia</h3>
        <p>
          La carpeta <code>firmware/</code> del repositorio contiene una biblioteca C++ probada que cumple este protocolo en el lado
          del equipo (número de secuencia que sobrevive a reinicios, lecturas guardadas sin conexión y enviadas en lotes, cada comando
          ejecutado una sola vez, comandos caducados rechazados, recorrido de la compuerta vigilado) y dos ejemplos para ESP32:{' '}
          <code>firmware/examples/level-sensor</code> (sensor de nivel ultrasónico o de presión) y{' '}
          <code>firmware/examples/gate</code> (compuerta con finales de carrera). Su <code>README.md</code> explica el cableado
          supuesto y cómo probar una placa virtual contra este servidor.
        </p>
      </Section>
    </div>
  );
}
