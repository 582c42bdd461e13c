import { useState } from 'react';
import type { DeviceField, DeviceFieldErrors, DeviceFormValues } from '../utils/device-form-values';

/** Values and inline errors of a device form; editing a field clears its error. */
export function useDeviceFormState(initial: () => DeviceFormValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<DeviceFieldErrors>({});
  function onChange<K extends DeviceField>(field: K, value: DeviceFormValues[K]) {
    setValues((v) => ({ ...v, [field]: value }));
    // warning < critical is one rule on two fields: editing either clears it.
    const linked: DeviceField[] = field === 'criticalPct' || field === 'warningPct' ? ['warningPct', 'criticalPct'] : [field];
    setErrors((e) => (linked.some((f) => e[f]) ? { ...e, ...Object.fromEntries(linked.map((f) => [f, undefined])) } : e));
  }
  return { values, errors, setErrors, onChange };
}
