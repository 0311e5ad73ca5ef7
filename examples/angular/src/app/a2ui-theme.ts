/**
 * The theme `provideA2UI` needs (@a2ui/angular 0.8.3 ships none): one class per component and part,
 * `a2ui-<name>`, styled in styles.css (the renderer's components are not this app's, so their styles
 * are global). The markdown of Text components gets no classes.
 */
import type { Theme } from '@a2ui/angular';

const c = (name: string): Record<string, boolean> => ({ [`a2ui-${name}`]: true });
const field = (name: string) => ({ container: c(`${name}`), element: c(`${name}-element`), label: c(`${name}-label`) });

export const A2UI_THEME: Theme = {
  components: {
    AudioPlayer: c('audio'),
    Button: c('button'),
    Card: c('card'),
    Column: c('column'),
    CheckBox: field('checkbox'),
    DateTimeInput: field('datetime'),
    Divider: c('divider'),
    Image: {
      all: c('image'),
      icon: c('image-icon'),
      avatar: c('image-avatar'),
      smallFeature: c('image-small'),
      mediumFeature: c('image-medium'),
      largeFeature: c('image-large'),
      header: c('image-header'),
    },
    Icon: c('icon'),
    List: c('list'),
    Modal: { backdrop: c('modal-backdrop'), element: c('modal') },
    MultipleChoice: field('choice'),
    Row: c('row'),
    Slider: field('slider'),
    Tabs: { container: c('tabs'), element: c('tabs-element'), controls: { all: c('tab'), selected: c('tab-selected') } },
    Text: {
      all: c('text'),
      h1: c('text-h1'),
      h2: c('text-h2'),
      h3: c('text-h3'),
      h4: c('text-h4'),
      h5: c('text-h5'),
      caption: c('text-caption'),
      body: c('text-body'),
    },
    TextField: field('textfield'),
    Video: c('video'),
  },
  elements: {
    a: {},
    audio: {},
    body: {},
    button: {},
    h1: {},
    h2: {},
    h3: {},
    h4: {},
    h5: {},
    iframe: {},
    input: {},
    p: {},
    pre: {},
    textarea: {},
    video: {},
  },
  markdown: { p: [], h1: [], h2: [], h3: [], h4: [], h5: [], ul: [], ol: [], li: [], a: [], strong: [], em: [] },
};
