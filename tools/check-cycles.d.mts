/** Types of tools/check-cycles.mjs, for the test that plants cycles and broken rules. */
export interface RuleViolation {
  rule: string;
  from: string;
  to: string;
}
export const RULES: Array<{ name: string; forbids: (from: string, to: string) => boolean }>;
export function checkRoot(root: string): { files: number; fileCycles: string[][]; featureCycles: string[][]; ruleViolations: RuleViolation[] };
