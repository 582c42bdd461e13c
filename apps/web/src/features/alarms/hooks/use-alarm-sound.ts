import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Alarm } from '@agua/shared';
import { nextAlarmSound, type AlarmSound } from '../utils/alarm-summary';

/**
 * Where the sound is set, each remembered per browser: the ordinary screens (off until turned on)
 * and the control-room wall (on until muted: the wall is watched from across the room, docs/operator-console.md).
 */
export type SoundPlace = 'screens' | 'wall';
const STORAGE_KEYS: Record<SoundPlace, string> = { screens: 'agua.alarmSound', wall: 'agua.alarmSound.wall' };
const DEFAULT_ON: Record<SoundPlace, boolean> = { screens: false, wall: true };
// A reminder, not a siren: one short beep at first, then one every so often until someone acts.
const REPEAT_MS = 15_000;
const listeners = new Set<() => void>();

/** 'Sonido de alarmas' of a place: what this browser chose there, else the place's default. */
export function useAlarmSoundSetting(place: SoundPlace = 'screens'): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => {
      const stored = localStorage.getItem(STORAGE_KEYS[place]);
      return stored === null ? DEFAULT_ON[place] : stored === 'on';
    },
  );
  const set = (value: boolean) => {
    localStorage.setItem(STORAGE_KEYS[place], value ? 'on' : 'off');
    for (const l of listeners) l();
  };
  return [on, set];
}

let audio: AudioContext | null = null;

/** A short two-tone beep (no audio files: Web Audio). One context for the page, as browsers limit them. */
function beep(): void {
  if (!window.AudioContext) return;
  audio ??= new AudioContext();
  // Autoplay rules start a context suspended until the page has had a click (e.g. the toggle).
  void audio.resume();
  const at = audio.currentTime;
  const gain = audio.createGain();
  gain.gain.value = 0.15;
  gain.connect(audio.destination);
  [880, 660].forEach((freq, i) => {
    const osc = audio!.createOscillator();
    osc.frequency.value = freq;
    osc.connect(gain);
    osc.start(at + i * 0.18);
    osc.stop(at + i * 0.18 + 0.15);
  });
}

/**
 * Beeps when an alarm of priority 1 or 2 newly waits unacknowledged, where the user turned sound
 * on, and again every REPEAT_MS while one still does; acknowledging (or shelving) it silences.
 */
export function useAlarmSound(open: readonly Alarm[] | undefined, place: SoundPlace = 'screens'): void {
  const [on] = useAlarmSoundSetting(place);
  const sound = useRef<AlarmSound | null>(null);
  const [ringing, setRinging] = useState(false);

  useEffect(() => {
    if (!open) return;
    const next = nextAlarmSound(sound.current, open);
    sound.current = next;
    if (next.fresh && on) beep();
    setRinging(next.ringing.size > 0);
  }, [open, on]);

  useEffect(() => {
    if (!ringing || !on) return;
    const timer = setInterval(beep, REPEAT_MS);
    return () => clearInterval(timer);
  }, [ringing, on]);
}
