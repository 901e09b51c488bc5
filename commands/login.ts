import fs from 'node:fs';
import { Flags } from '@oclif/core';
import { ClientCommand } from '../src/cli/client-command.js';
import { configPath, forgetLogin, normaliseUrl, writeLogin } from '../src/cli/client-config.js';
import { CliError, EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { openRemoteClient } from '../src/client/remote.js';

const KEY = /^ak_(live|test)_[A-Za-z0-9_-]{16,}$/;

export default class Login extends ClientCommand {
  static override summary = 'Save a server and an API key for the other commands.';
  static override description =
    'Checks the key against the server (GET /v1/me) and saves both to ~/.heatsource/config.json ' +
    '(HEATSOURCE_CONFIG names another file), readable by you only (mode 0600). Later commands then ask that ' +
    'server unless --bundle, --offline, --url or HEATSOURCE_URL say otherwise. Without --key the key is ' +
    'read from stdin, which keeps it out of the shell history. --forget removes the saved login.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> login --url https://hs.example.com --key ak_live_…',
    'echo "$HEATSOURCE_API_KEY" | <%= config.bin %> login --url https://hs.example.com',
    '<%= config.bin %> login --forget',
  ];
  static override flags = {
    url: Flags.string({ description: 'server URL, e.g. https://hs.example.com' }),
    key: Flags.string({ description: 'API key (ak_live_… or ak_test_…); read from stdin when absent' }),
    verify: Flags.boolean({
      description: 'check the key against the server first',
      default: true,
      allowNo: true,
    }),
    forget: Flags.boolean({ description: 'remove the saved server and key', exclusive: ['url', 'key'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Login);
    const file = configPath();
    let code: number = EXIT.ok;
    try {
      if (flags.forget) {
        this.print(forgetLogin(file) ? `removed ${file}` : `no saved login at ${file}`);
      } else {
        await this.login(flags.url, flags.key, flags.verify, file);
      }
    } catch (err) {
      code = this.report(err, false);
    }
    if (code !== EXIT.ok) this.exit(code);
  }

  private async login(url: string | undefined, given: string | undefined, verify: boolean, file: string) {
    if (!url) throw new CliError('--url is required (the server to save)', EXIT.usage);
    let base: string;
    try {
      base = normaliseUrl(url);
    } catch {
      throw new CliError(`--url is not an http(s) URL: "${url}"`, EXIT.usage);
    }
    const key = (given ?? (process.stdin.isTTY ? '' : fs.readFileSync(0, 'utf8'))).trim();
    if (!key) throw new CliError('no key: pass --key, or pipe it on stdin', EXIT.usage);
    if (!KEY.test(key))
      throw new CliError('this is not an API key: keys start with ak_live_ or ak_test_', EXIT.usage);
    let who = '';
    if (verify) {
      this.target = { kind: 'remote', url: base, apiKey: key, from: 'flag' };
      const me = await openRemoteClient({ url: base, apiKey: key, retries: 1 }).me();
      who = ` for account "${me.account.name}"${me.key ? ` (key ${me.key.prefix}…, ${me.key.mode})` : ''}`;
    }
    writeLogin({ url: base, api_key: key }, file);
    this.print(`saved ${base}${who} to ${file}`);
  }
}
