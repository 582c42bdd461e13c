import { Volume2, VolumeX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { useAlarmSoundSetting, type SoundPlace } from '../hooks/use-alarm-sound';

/**
 * 'Sonido de alarmas' in the header, on every signed-in screen: a mute/unmute button (off until
 * this browser turns it on, remembered per browser). A toggle button, so its name stays put and
 * `aria-pressed` says whether sound is on; the icon says it to the eye. 44 px square (touch).
 * On the control-room wall it is its own setting, on until muted.
 */
export function AlarmSoundToggle({ place = 'screens' }: { place?: SoundPlace }) {
  const [on, setOn] = useAlarmSoundSetting(place);
  return (
    <Tooltip content={on ? 'Sonido de alarmas activado: pulse para silenciar' : 'Sonido de alarmas desactivado: pulse para activarlo'}>
      <Button variant="ghost" size="icon" aria-label="Sonido de alarmas" aria-pressed={on} data-testid="alarm-sound-toggle" onClick={() => setOn(!on)}>
        {on ? <Volume2 aria-hidden="true" className="size-5" /> : <VolumeX aria-hidden="true" className="size-5 text-muted-foreground" />}
      </Button>
    </Tooltip>
  );
}
