// @vitest-environment jsdom
import { describeUnderDomEnvironment } from './dom-environment.js';

describeUnderDomEnvironment('jsdom');
