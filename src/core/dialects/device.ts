/**
 * The device a run's tab is shown as: the dialect's (observes.device), or, for a dialect whose
 * device the person chooses (deviceSetting: appagent), the choice carried into the run.
 */
import { dialectOf } from './registry';
import type { Device } from './types';

export function isDevice(x: unknown): x is Device {
  return x === 'phone' || x === 'desktop';
}

/** The run's device: `run.device` counts only for a dialect with deviceSetting. */
export function runDevice(run: { dialect: string; device?: Device }): Device {
  const d = dialectOf(run.dialect);
  return d.deviceSetting && isDevice(run.device) ? run.device : d.observes.device;
}
