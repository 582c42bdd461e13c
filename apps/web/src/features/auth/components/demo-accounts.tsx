import { ROLE_BADGE_NAMES, type Role } from '@agua/shared';

export interface DemoAccount {
  username: string;
  password: string;
  masterPassword?: string;
  role: Role;
}

// The seed's sample credentials (docs/product.md); listed only when the server says it runs in demo mode.
const DEMO_ACCOUNTS: DemoAccount[] = [
  { username: 'admin', password: 'admin123', masterPassword: 'maestra2024', role: 'admin' },
  { username: 'operator', password: 'operator123', role: 'operator' },
  { username: 'viewer', password: 'viewer123', role: 'viewer' },
];

/** Demo accounts in plain text; a click fills the form with one. */
export function DemoAccounts({ onPick }: { onPick: (account: DemoAccount) => void }) {
  return (
    <section aria-labelledby="demo-accounts-title" className="rounded-lg border border-dashed bg-muted/50 p-4">
      <h2 id="demo-accounts-title" className="text-sm font-semibold">
        Cuentas de demostración
      </h2>
      <p className="mt-1 text-xs text-muted-foreground">Pulse una cuenta para completar el formulario.</p>
      <ul className="mt-3 grid gap-1">
        {DEMO_ACCOUNTS.map((account) => (
          <li key={account.username}>
            <button
              type="button"
              onClick={() => onPick(account)}
              className="flex min-h-11 w-full flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent"
            >
              <span className="font-mono text-xs sm:text-sm">
                {account.username} / {account.password}
                {account.masterPassword ? ` / ${account.masterPassword}` : ''}
              </span>
              <span className="text-xs text-muted-foreground">({ROLE_BADGE_NAMES[account.role]})</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
