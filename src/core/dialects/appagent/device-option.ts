/**
 * AppAgent's "device" option: its prompts speak of a smartphone, so the run's tab is shown as a
 * phone unless the person chose the desktop viewport (Settings, or the runner's
 * `--dialect-option device=…` and its alias `--device`).
 */
import type { Device, DialectOption, DialectOptionValues } from '../types';

export const DEVICE: DialectOption = {
  name: 'device',
  choices: ['phone', 'desktop'],
  default: 'phone',
  label: 'fieldDevice',
  help: 'fieldDeviceHelp',
  choiceLabels: { phone: 'devicePhone', desktop: 'deviceDesktop' },
};

export function deviceOf(options: DialectOptionValues): Device {
  return options[DEVICE.name] === 'desktop' ? 'desktop' : 'phone';
}
