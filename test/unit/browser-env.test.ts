import { describe, expect, it } from 'vitest';
import { browserEnv } from '../../scripts/browser-env';

const FROM_SHELL: NodeJS.ProcessEnv = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/me',
  LANG: 'de_DE.UTF-8',
  LC_ALL: 'de_DE.UTF-8',
  XDG_RUNTIME_DIR: '/run/user/1000',
  DISPLAY: ':0',
  VLM_API_KEY: 'sk-vlm',
  JUDGE_API_KEY: 'sk-judge',
  OPENAI_API_KEY: 'sk-openai',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'ghp_x',
  https_proxy: 'http://user:pass@proxy:3128',
  FOO: 'bar',
  CHROME_DEVEL_SANDBOX: '/opt/chrome/chrome-sandbox',
  CHROME_API_KEY: 'looks-like-a-key',
};

describe('browserEnv', () => {
  it('drops keys, tokens and anything not on the allowlist', () => {
    const env = browserEnv(FROM_SHELL);
    for (const name of ['VLM_API_KEY', 'JUDGE_API_KEY', 'OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'https_proxy', 'FOO', 'CHROME_API_KEY']) {
      expect(env, name).not.toHaveProperty(name);
    }
    expect(Object.values(env).join('\n')).not.toMatch(/sk-|secret|ghp_|pass@|bar|looks-like/);
  });

  it('keeps what a browser needs', () => {
    expect(browserEnv(FROM_SHELL)).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/home/me',
      LANG: 'de_DE.UTF-8',
      LC_ALL: 'de_DE.UTF-8',
      XDG_RUNTIME_DIR: '/run/user/1000',
      DISPLAY: ':0',
      CHROME_DEVEL_SANDBOX: '/opt/chrome/chrome-sandbox',
    });
  });

  it('sets DISPLAY when a display is given, and keeps the shell\'s otherwise', () => {
    expect(browserEnv(FROM_SHELL, ':99').DISPLAY).toBe(':99');
    expect(browserEnv({ PATH: '/bin' }, ':7')).toEqual({ PATH: '/bin', DISPLAY: ':7' });
    expect(browserEnv(FROM_SHELL).DISPLAY).toBe(':0');
    expect(browserEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it('does not change the environment it is given', () => {
    const env = { ...FROM_SHELL };
    browserEnv(env, ':99');
    expect(env).toEqual(FROM_SHELL);
  });
});
