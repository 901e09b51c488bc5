import { Flags } from '@oclif/core';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { StateCommand, stateFlag } from '../../src/cli/state-flag.js';
import { InvitationError, inviteHolder } from '../../src/state/invitations.js';

export default class AccountsInvite extends StateCommand {
  static override summary = 'Invite a person to hold an account in the web console (a one-time link).';
  static override description =
    'Prints a link that lets the person set a password and sign in to /console, where they manage the ' +
    "account's keys and see its usage. The link works once and expires after 72 hours; only its hash is " +
    'stored. The account is created when it does not exist. Inviting the email of an existing holder again ' +
    'lets them set a new password; a new invitation ends the earlier links to the same email. Exit status 2 for an unusable email or an email holding another account.';
  static override examples = [
    '<%= config.bin %> accounts invite --account acme --email ops@acme.example',
    '<%= config.bin %> accounts invite --account acme --email ops@acme.example --url https://api.example.com --json',
  ];
  static override flags = {
    account: Flags.string({ char: 'a', description: 'account name', required: true }),
    email: Flags.string({ char: 'e', description: "the holder's email address", required: true }),
    url: Flags.string({
      description: 'base URL of the server the link points to',
      default: 'http://127.0.0.1:8080',
      env: 'HEATSOURCE_PUBLIC_URL',
    }),
    ...stateFlag,
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(AccountsInvite);
    let base: URL;
    try {
      base = new URL(flags.url);
      if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new CliError(`--url must be an http or https URL; got ${flags.url}`, EXIT.usage);
    }
    const state = await this.openState(flags.state);
    try {
      const report = await inviteHolder(state, {
        account: flags.account,
        email: flags.email,
        baseUrl: base.href,
      });
      if (flags.json) {
        this.log(
          JSON.stringify(
            {
              url: report.url,
              email: report.invitation.email,
              account: { id: report.account.id, name: report.account.name, created: report.account_created },
              expires_at: report.invitation.expires_at,
            },
            null,
            2,
          ),
        );
      } else {
        this.log(report.url);
        this.logToStderr(
          `invitation for ${report.invitation.email} to account "${report.account.name}"` +
            `${report.account_created ? ' (new)' : ''}; works once, until ${report.invitation.expires_at}. ` +
            'It is not shown again.',
        );
      }
    } catch (err) {
      if (err instanceof InvitationError) throw new CliError(err.message, EXIT.usage);
      throw err;
    } finally {
      await state.close();
    }
  }
}
