import { render } from 'preact';
import { App } from './components/app';
import { send } from './api';

// The headless runner drives the extension through this page with the same messages the UI uses.
(window as unknown as { webagent: { send: typeof send } }).webagent = { send };

render(<App />, document.getElementById('app')!);
