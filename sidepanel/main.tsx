import { render } from 'preact';
import { App } from './components/app';
import { send } from './api';
import { exportRun, exportRuns } from './export';

// The headless runner drives the extension through this page with the same messages the UI uses,
// and asks it for the exports (report, zip) the panel makes.
(window as unknown as { webagent: { send: typeof send; exportRun: typeof exportRun; exportRuns: typeof exportRuns } }).webagent = { send, exportRun, exportRuns };

render(<App />, document.getElementById('app')!);
