import { DraftingCompass } from 'lucide-react';
import { SYNOPTIC_LIMITS } from '@agua/shared';
import { Section } from './manual-section';

/** 'Cómo dibujar un sitio': sites, the map and the synoptic editor, for the engineers who draw them. */
export function ManualSites() {
  return (
    <Section id="manual-sitios" icon={DraftingCompass} title="Cómo dibujar un sitio">
      <p>
        Un <strong>sitio</strong> es un lugar de la instalación (un depósito, un aliviadero) con sus dispositivos. <strong>Mapa</strong>, en el
        menú de todos los roles, muestra cada sitio con coordenadas en su lugar; su marcador dice la alarma sin reconocer más grave de sus
        dispositivos con su color, su forma y su nombre («Crítica · 2 alarmas»), o «Sin alarmas» en gris. Los sitios sin coordenadas
        aparecen en la lista junto al mapa. Sin servidor de teselas (<code>MAP_TILE_URL</code>) el mapa no tiene fondo: los sitios se ven
        sobre un fondo neutro con la escala, también sin conexión a Internet.
      </p>
      <h3>Crear el sitio y asignar sus dispositivos</h3>
      <ol>
        <li>
          En <strong>Mapa</strong>, pulse <strong>Nuevo sitio</strong>: nombre, <strong>Sitio superior</strong> si está dentro de otro (una
          estación dentro de su cuenca), latitud y longitud en grados decimales (las dos o ninguna) y, si quiere, la dirección.{' '}
          <strong>Datos del sitio</strong>, en la página del sitio, los cambia. Un sitio no puede estar dentro de sí mismo ni de uno de sus
          propios sitios. En la lista de <strong>Mapa</strong> los sitios de dentro aparecen sangrados bajo el suyo, y la página de cada sitio
          enlaza con su sitio superior y con los de dentro.
        </li>
        <li>
          En la página del sitio, pulse <strong>Editar sinóptico</strong>. Al pie, <strong>Dispositivos del sitio</strong>: elija un
          dispositivo en <strong>Añadir un dispositivo al sitio</strong> y pulse <strong>Asignar al sitio</strong>. Un dispositivo está en un
          solo sitio; asignarlo a otro lo quita del anterior.
        </li>
      </ol>
      <h3>Dibujar</h3>
      <ol>
        <li>
          En la <strong>Paleta</strong>, <strong>Colocar …</strong> pone cada dispositivo del sitio en el primer hueco libre: un sensor de nivel
          como <strong>tanque</strong>, una compuerta como <strong>compuerta</strong>. <strong>Canal</strong> añade una tubería o canal y{' '}
          <strong>Etiqueta</strong> un texto.
        </li>
        <li>
          Arrastre un elemento para moverlo y su esquina inferior derecha para cambiar su tamaño; todo se ajusta a una cuadrícula de 20
          unidades. Con el teclado: <kbd>Tab</kbd> elige un elemento, las flechas lo mueven 20 unidades, <kbd>Mayús</kbd> + flechas cambian su
          tamaño, <kbd>Supr</kbd> lo quita y <kbd>Ctrl</kbd> + <kbd>Z</kbd> (o <strong>Deshacer</strong>) deshace.
        </li>
        <li>
          <strong>Elemento seleccionado</strong> cambia el símbolo, el dispositivo, la etiqueta (vacía: el nombre del dispositivo), la
          rotación y la posición exacta. Un tanque se dibuja a escala: su altura es el nivel máximo del sensor, con las marcas de
          advertencia y crítico y, si su geometría tiene vertedero, la cresta.
        </li>
        <li>
          Deje sitio bajo cada tanque y compuerta: sus textos (valor, volumen, «Desborde en ≈ …», antigüedad y alarmas) se dibujan debajo, o
          encima si el dibujo se acaba.
        </li>
        <li>
          <strong>Fondo y tamaño</strong>: la <strong>Cuadrícula</strong> o un plano en <strong>SVG</strong> de hasta 2 MB (dibujado sobre
          blanco; en el tema oscuro se invierte). El servidor quita del SVG lo que podría ejecutarse o cargar otros archivos (scripts,
          atributos <code>on…</code>, enlaces externos) y, al guardar, un aviso dice qué quitó. El dibujo mide de {SYNOPTIC_LIMITS.sizeMin} a{' '}
          {SYNOPTIC_LIMITS.sizeMax} unidades por lado y admite hasta {SYNOPTIC_LIMITS.itemsMax} elementos.
        </li>
        <li>
          <strong>Guardar</strong> crea una versión nueva; las anteriores quedan en el historial. Si otra persona guardó mientras usted
          editaba, se avisa y se carga su versión: repita sus cambios sobre ella.
        </li>
      </ol>
      <h3>Versiones</h3>
      <p>
        En la página del sitio, <strong>Versiones</strong> lista cada versión guardada del sinóptico, la más reciente primero, con su fecha y
        quién la guardó («Sistema» para el dibujo de demostración). <strong>Ver</strong> muestra una versión anterior sin poder cambiarla;{' '}
        <strong>Restaurar</strong> la guarda como una versión nueva encima de la actual, así que ninguna versión se pierde. Si otra persona
        guardó entretanto, se avisa y se carga su versión.
      </p>
      <h3>Eliminar un sitio</h3>
      <p>
        En <strong>Datos del sitio</strong>, <strong>Eliminar sitio</strong> (tras confirmarlo). Sus dispositivos se conservan, sin sitio; las
        versiones de su sinóptico se eliminan. Un sitio con otros sitios dentro no se elimina: muévalos a otro sitio superior o elimínelos
        antes.
      </p>
      <h3>Lo que ve el operador</h3>
      <p>
        En la página del sitio el dibujo está vivo: gris mientras todo es normal, con color solo para lo anormal (un nivel en advertencia o
        crítico, una compuerta en falla, el marco de un dispositivo con alarma en el color de su prioridad). Cada valor lleva su antigüedad
        («hace 5 s»); un dato antiguo o un dispositivo desconectado se ve en gris con línea discontinua y lo dice. Pulsar un dispositivo abre
        su <strong>Panel de Control</strong>, con los mismos comandos, confirmaciones y enclavamientos que en <strong>Dispositivos</strong>.
        Un dispositivo borrado aparece como «Dispositivo eliminado» hasta que se quite del dibujo. En un teléfono el sinóptico es una lista
        de los mismos elementos, de arriba abajo, y en el mapa un dedo desplaza la página: el mapa se mueve con dos dedos.
      </p>
    </Section>
  );
}
