// Every test file on Jest's fake clock, leaving what msw and fetch run on alone, and Testing Library stepping it.
import { jest } from '@jest/globals';
import { configure } from '@testing-library/react';
import { fakeTimeForTestingLibrary } from 'animal-store-sdk/testing';

configure(fakeTimeForTestingLibrary((ms) => jest.advanceTimersByTimeAsync(ms)));
jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
