/**
 * A command of the person's (a button press that sends a message) whose error is shown next to
 * that button, not in a shared line elsewhere: each part of the panel keeps its own error.
 */
import { useState } from 'preact/hooks';
import { messageOf, type Command } from './api';

export function useCommand(): { command: Command; error: string | null; clearError: () => void } {
  const [error, setError] = useState<string | null>(null);
  const command: Command = async (fn) => {
    setError(null);
    try {
      await fn();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };
  return { command, error, clearError: () => setError(null) };
}
