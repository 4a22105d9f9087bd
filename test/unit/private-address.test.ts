import { describe, expect, it } from 'vitest';
import { isPrivateHost } from '../../src/core/private-address';

describe('isPrivateHost', () => {
  it('names this machine and the local network as private', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '[::1]', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', 'fd00::1', 'fe80::1', 'router', 'printer.local', 'nas.lan', 'wiki.corp', 'db.internal', 'box.home.arpa', 'LOCALHOST.']) {
      expect(isPrivateHost(h), h).toBe(true);
    }
  });
  it('leaves public names and addresses public', () => {
    for (const h of ['fonts.googleapis.com', 'cdn.example.com', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '[2606:4700::1111]', '::ffff:8.8.8.8', 'localhost.example.com']) {
      expect(isPrivateHost(h), h).toBe(false);
    }
  });
});
