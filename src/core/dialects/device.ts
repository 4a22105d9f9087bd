/**
 * The device a run's tab is shown as: the dialect's (observes.device), or, for a dialect whose
 * options choose it (Dialect.deviceOf: appagent's "device"), the choice carried into the run.
 */
import { dialectOf } from './registry';
import { optionValues } from './options';
import type { Device } from './types';

export function isDevice(x: unknown): x is Device {
  return x === 'phone' || x === 'desktop';
}

/** The run's device, from its dialect and option values. */
export function runDevice(run: { dialect: string; dialectOptions?: unknown }): Device {
  const d = dialectOf(run.dialect);
  return d.deviceOf ? d.deviceOf(optionValues(d, run.dialectOptions)) : d.observes.device;
}
