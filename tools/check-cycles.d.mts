/** Types of tools/check-cycles.mjs, for the test that plants a cycle. */
export function checkRoot(root: string): { files: number; fileCycles: string[][]; featureCycles: string[][] };
