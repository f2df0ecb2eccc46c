// @vitest-environment happy-dom
import { describeUnderDomEnvironment } from './dom-environment.js';

describeUnderDomEnvironment('happy-dom');
