// Complete outside objects as the network's public v2 data dictionary lists them (the Tweet and
// User objects, every field, nested entities included), written for these tests: what a fetcher
// relays when it asks for every tweet.fields and user.fields. Ids are numeric strings, as the
// network sends them; values are made up.

/** A post carrying every field of the v2 Tweet object. */
export function fullV2Post(id: string, authorId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    text: 'Reading the new release notes with @svcproject https://t.co/AbCdEf1234 #agents $SVC',
    edit_history_tweet_ids: [id],
    article: { title: 'A long-form note' },
    attachments: { media_keys: ['3_1365362339449561088'], poll_ids: ['1199786642468413448'], media_source_tweet_id: ['1212092628029698048'] },
    author_id: authorId,
    card_uri: 'card://1593006924716879872',
    community_id: '1146654567674912769',
    context_annotations: [
      {
        domain: { id: '46', name: 'Business Taxonomy', description: 'Categories within Brand Verticals that narrow down the scope of Brands' },
        entity: {
          id: '1557696940178935808',
          name: 'Gaming Business',
          description: 'Brands, companies, advertisers and every non-person handle with the profit intent',
        },
      },
    ],
    conversation_id: id,
    created_at: '2026-11-23T11:00:00.000Z',
    display_text_range: [0, 84],
    edit_controls: { edits_remaining: 5, is_edit_eligible: true, editable_until: '2026-11-23T11:30:00.000Z' },
    entities: {
      annotations: [{ start: 53, end: 58, probability: 0.9, type: 'Other', normalized_text: 'agents' }],
      cashtags: [{ start: 81, end: 85, tag: 'SVC' }],
      hashtags: [{ start: 73, end: 80, tag: 'agents' }],
      mentions: [{ start: 35, end: 46, username: 'svcproject', id: '1000' }],
      urls: [
        {
          start: 47,
          end: 70,
          url: 'https://t.co/AbCdEf1234',
          expanded_url: 'https://example.org/releases/notes',
          display_url: 'example.org/releases/notes',
          media_key: '3_1365362339449561088',
          images: [
            { url: 'https://pbs.twimg.com/news_img/1/a?format=jpg&name=orig', width: 1200, height: 630 },
            { url: 'https://pbs.twimg.com/news_img/1/a?format=jpg&name=150x150', width: 150, height: 150 },
          ],
          status: 200,
          title: 'Release notes',
          description: 'What changed in the latest release.',
          unwound_url: 'https://example.org/releases/notes',
        },
      ],
    },
    geo: { coordinates: { type: 'Point', coordinates: [-74.026675, 40.683935] }, place_id: '01a9a39529b27f36' },
    in_reply_to_user_id: '1000',
    lang: 'en',
    media_metadata: [{ media_key: '3_1365362339449561088', alt_text: 'A screenshot of the notes' }],
    non_public_metrics: { impression_count: 956, url_link_clicks: 3, user_profile_clicks: 2 },
    note_tweet: {
      text: 'Reading the new release notes with @svcproject, the longer version of this post.',
      entities: {
        hashtags: [{ start: 0, end: 7, tag: 'agents' }],
        mentions: [{ start: 35, end: 46, username: 'svcproject', id: '1000' }],
        urls: [],
        cashtags: [],
      },
    },
    organic_metrics: { impression_count: 956, like_count: 49, reply_count: 2, retweet_count: 9, url_link_clicks: 3, user_profile_clicks: 2 },
    possibly_sensitive: false,
    promoted_metrics: { impression_count: 0, like_count: 0, reply_count: 0, retweet_count: 0, url_link_clicks: 0, user_profile_clicks: 0 },
    public_metrics: { retweet_count: 9, reply_count: 2, like_count: 49, quote_count: 1, bookmark_count: 4, impression_count: 956 },
    referenced_tweets: [{ type: 'replied_to', id: '1304102743196356610' }],
    reply_settings: 'everyone',
    scopes: { followers: false },
    source: 'Twitter Web App',
    withheld: { copyright: false, country_codes: ['DE'], scope: 'tweet' },
    ...overrides,
  };
}

/** A user carrying every field of the v2 User object. */
export function fullV2User(id: string, username: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: 'Outside Person',
    username,
    affiliation: {
      badge_url: 'https://pbs.twimg.com/semantic_core_img/1/badge.jpg',
      description: 'Example Org',
      url: 'https://x.com/exampleorg',
      user_id: ['783214'],
    },
    connection_status: ['following', 'followed_by'],
    created_at: '2013-12-14T04:35:55.000Z',
    description: 'Writes about agents. Links: https://t.co/Zz9Yy8Xx7W #agents @svcproject $SVC',
    entities: {
      url: {
        urls: [{ start: 0, end: 23, url: 'https://t.co/Qw1Er2Ty3U', expanded_url: 'https://example.org', display_url: 'example.org' }],
      },
      description: {
        urls: [{ start: 28, end: 51, url: 'https://t.co/Zz9Yy8Xx7W', expanded_url: 'https://example.org/about', display_url: 'example.org/about' }],
        hashtags: [{ start: 52, end: 59, tag: 'agents' }],
        mentions: [{ start: 60, end: 71, username: 'svcproject' }],
        cashtags: [{ start: 72, end: 76, tag: 'SVC' }],
      },
    },
    location: 'Somewhere',
    most_recent_tweet_id: '1307025659294674945',
    pinned_tweet_id: '1293593516040269825',
    profile_banner_url: 'https://pbs.twimg.com/profile_banners/1/1',
    profile_image_url: 'https://pbs.twimg.com/profile_images/1/a_normal.jpg',
    protected: false,
    public_metrics: { followers_count: 513, following_count: 2039, tweet_count: 3635, listed_count: 1672, like_count: 820, media_count: 41 },
    receives_your_dm: true,
    subscription_type: 'None',
    url: 'https://t.co/Qw1Er2Ty3U',
    verified: false,
    verified_followers_count: 12,
    verified_type: 'none',
    withheld: { country_codes: ['DE'], scope: 'user' },
    parody: false,
    ...overrides,
  };
}
