/**
 * "Test connection" sends one small request the way a run does (an image and a text), so it
 * tells whether the endpoint accepts images, not only whether it answers.
 */

/** The first words of the test request's text (the test fake server recognizes it by them). */
export const CONNECTION_TEST_TEXT = 'Connection test from the Web Agent extension: reply with the word OK.';

/** A 32x32 white PNG. */
export const CONNECTION_TEST_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAJklEQVR42u3NMQ0AAAwDoPo33arYsQQMkB6LQCAQCAQCgUAg+BIMi1X0ptsIcT0AAAAASUVORK5CYII=';
