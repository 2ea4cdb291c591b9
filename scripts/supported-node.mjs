// Imported first by the entry points run through tsx (`npm run worker`): on a Node.js that package.json's engines
// does not allow, stop with a sentence saying which are supported, before anything else loads.
import { nodeVersionProblem } from "./start-rules.mjs";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
